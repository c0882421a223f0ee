package org.gridrun.jobs.cli;

import picocli.CommandLine.Command;

/** {@code grid-run bench …}: benchmarks that print figures measured in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks that print figures and ratios measured in the same run.",
        subcommands = {BenchGridCommand.class, BenchCompressorsCommand.class, BenchTrainCommand.class,
                BenchIngestCommand.class, BenchDataCommand.class})
final class BenchCommand {
}
