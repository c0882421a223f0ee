package org.gridrun.jobs.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The version line of {@code grid-run --version}, from the jar's manifest when there is one.
 */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = GridRun.class.getPackage().getImplementationVersion();
        return new String[] {"grid-run " + (version == null ? "development build" : version),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }
}
