package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.UserInputException;
import java.util.concurrent.Callable;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run expand --grid G}: prints one experiment name per line, optionally with its id.
 */
@Command(name = "expand", mixinStandardHelpOptions = true,
        description = "Print the experiments a grid expands to, one name per line.")
final class ExpandCommand implements Callable<Integer> {
    @Mixin
    GridSelection selection;

    @Option(names = "--ids", description = "Print each experiment's config hash before its name.")
    boolean ids;

    /** How experiments are printed. */
    enum Format { names, yaml, json }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "names",
            description = "names (one per line, the default), or yaml / json: every experiment with its run, id, "
                    + "the values the grid set and the resolved trainer config.")
    Format format;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        GridFile file = selection.load(common.workspace());
        List<Experiment> experiments = selection.run == null ? file.expandAll() : file.expand(selection.run);
        PrintWriter out = spec.commandLine().getOut();
        if (format != Format.names) {
            printConfigs(experiments, out);
            return 0;
        }
        for (Experiment e : experiments) {
            out.println(ids ? e.id() + " " + e.name() : e.name());
        }
        out.flush();
        return 0;
    }

    private void printConfigs(List<Experiment> experiments, PrintWriter out) {
        List<Map<String, Object>> docs = new ArrayList<>(experiments.size());
        for (Experiment e : experiments) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("name", e.name());
            doc.put("id", e.id());
            doc.put("run", e.run());
            doc.put("params", e.params());
            try {
                doc.put("config", TrainerConfig.resolve(e.params()));
            } catch (ConfigException bad) {
                throw new UserInputException(selection.grid + ": run '" + e.run() + "', experiment " + e.name() + ": "
                        + bad.getMessage(), bad);
            }
            docs.add(doc);
        }
        ObjectMapper mapper = format == Format.json ? new ObjectMapper()
                : new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
        try {
            out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(docs));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print the experiments as " + format + ": " + e.getMessage(), e);
        }
        out.flush();
    }
}
