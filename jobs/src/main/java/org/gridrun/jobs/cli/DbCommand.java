package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.gridrun.analysis.StoreServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code grid-run db …}: servers in front of the results store. */
@Command(name = "db", mixinStandardHelpOptions = true,
        description = "Serve the results store to jobs that write live, or open H2's web console on it.",
        subcommands = {DbCommand.Serve.class, DbCommand.Console.class})
final class DbCommand {
    private DbCommand() {
    }

    /** Runs {@code server} until the JVM is asked to stop (Ctrl-C, SIGTERM). */
    private static int serveUntilStopped(StoreServer server) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "grid-run db shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** {@code grid-run db serve}. */
    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Start an H2 TCP server on the results store and print the JDBC URL that jobs write to "
                    + "live (grid-run train --db-url URL, or $GRIDRUN_DB_URL); runs until Ctrl-C.")
    static final class Serve implements Callable<Integer> {
        @Option(names = "--port", paramLabel = "P", defaultValue = "9092",
                description = "TCP port, 0 for any free one (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--allow-others",
                description = "Accept connections from other hosts (default: localhost only; H2's TCP protocol is "
                        + "unencrypted and the store's user has no password).")
        boolean allowOthers;

        @Mixin
        CommonOptions common;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            StoreServer server = StoreServer.tcp(common.workspace().database(), port, allowOthers);
            PrintWriter out = spec.commandLine().getOut();
            out.println("results store served at " + server.url());
            out.println("jobs write live with: export GRIDRUN_DB_URL='" + server.url() + "'");
            out.println("Ctrl-C stops the server; jobs that cannot reach it keep their spools for a later ingest");
            out.flush();
            return serveUntilStopped(server);
        }
    }

    /** {@code grid-run db console}. */
    @Command(name = "console", mixinStandardHelpOptions = true,
            description = "Start H2's web console on localhost for ad-hoc SQL and print its address; runs until "
                    + "Ctrl-C.")
    static final class Console implements Callable<Integer> {
        @Option(names = "--port", paramLabel = "P", defaultValue = "8082",
                description = "HTTP port, 0 for any free one (default: ${DEFAULT-VALUE}).")
        int port;

        @Mixin
        CommonOptions common;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            StoreServer console = StoreServer.console(port, false);
            PrintWriter out = spec.commandLine().getOut();
            out.println("H2 console at " + console.url());
            out.println("log in with JDBC URL jdbc:h2:file:" + common.workspace().database().toAbsolutePath()
                    .normalize() + ";AUTO_SERVER=TRUE, user sa, empty password");
            out.println("Ctrl-C stops the console");
            out.flush();
            return serveUntilStopped(console);
        }
    }
}
