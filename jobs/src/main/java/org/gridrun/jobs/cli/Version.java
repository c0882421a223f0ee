package org.gridrun.jobs.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The version line of {@code grid-run --version}, from the jar's manifest when there is one.
 */
final class Version implements IVersionProvider {
    /** The version number, or {@code development build} outside a built jar. */
    static String number() {
        String version = GridRun.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"grid-run " + number(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }
}
