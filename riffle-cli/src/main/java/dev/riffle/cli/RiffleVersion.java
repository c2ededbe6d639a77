package dev.riffle.cli;

import picocli.CommandLine;

/** Reports the version from the jar manifest (or "development" when run from classes). */
public final class RiffleVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = RiffleVersion.class.getPackage().getImplementationVersion();
        return new String[] {"riffle " + (version == null ? "development" : version)
                + " (Fluss client 0.9.1-incubating, Arrow 18.3.0)"};
    }
}
