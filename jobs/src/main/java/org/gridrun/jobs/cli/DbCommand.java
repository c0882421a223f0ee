package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.gridrun.analysis.StoreSecret;
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
                    + "live (grid-run train --db-url URL, or $GRIDRUN_DB_URL); it listens on loopback only unless "
                    + "--allow-others, and admits only clients that give the store's secret; runs until Ctrl-C.")
    static final class Serve implements Callable<Integer> {
        @Option(names = "--port", paramLabel = "P", defaultValue = "9092",
                description = "TCP port, 0 for any free one (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--allow-others",
                description = "Listen on every interface, for jobs on other hosts (default: loopback only). Clients "
                        + "still need the store's secret; add --tls, or the network sees the traffic.")
        boolean allowOthers;

        @Option(names = "--tls",
                description = "Encrypt connections (jdbc:h2:ssl://) with a key of the store's own, which clients "
                        + "read beside the store and trust alone.")
        boolean tls;

        @Mixin
        CommonOptions common;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            Path database = common.workspace().database();
            StoreServer server = StoreServer.tcp(database, port, allowOthers, tls);
            PrintWriter out = spec.commandLine().getOut();
            out.println("results store served at " + server.url()
                    + (allowOthers ? " (every interface)" : " (loopback only: jobs on this host)"));
            out.println("jobs write live with: export GRIDRUN_DB_URL='" + server.url() + "'");
            out.println("they log in with the secret in " + StoreSecret.file(database)
                    + " (readable by you only), or with $" + StoreSecret.ENV + " where that file is out of reach");
            if (allowOthers && !tls) {
                out.println("warning: without --tls, anyone who can watch the network between the jobs and this "
                        + "host sees the results and the login");
            }
            out.println("gridrun commands on this host reach the store through this server while it runs");
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
            Path database = common.workspace().database();
            StoreServer console = StoreServer.console(port);
            PrintWriter out = spec.commandLine().getOut();
            out.println("H2 console at " + console.url() + " (loopback only)");
            out.println("log in with JDBC URL jdbc:h2:file:" + database
                    + ";AUTO_SERVER=TRUE, user sa, and as password the secret in "
                    + StoreSecret.file(database));
            out.println("other users of this host can reach the console's page too (not the store without its "
                    + "secret): stop it when done. Ctrl-C stops the console");
            out.flush();
            return serveUntilStopped(console);
        }
    }
}
