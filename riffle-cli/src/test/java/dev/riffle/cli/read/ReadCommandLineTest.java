package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Usage errors of {@code riffle read}: found before connecting, one line, exit 2. */
class ReadCommandLineTest {
    // Nothing listens here: a test that got as far as connecting would fail with exit 1, not 2.
    private static final String NOWHERE = "127.0.0.1:1";

    @Test
    void helpShowsTheOptionsAndTheTimeForms() {
        CliRun run = CliRun.of("read", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--bootstrap-servers", "--from", "--until", "--columns", "--changelog",
                "--format", "--out", "read as UTC", "default: 127.0.0.1:9123");
    }

    @Test
    void theTopLevelHelpListsRead() {
        assertThat(CliRun.of("--help").out()).contains("read");
    }

    @Test
    void malformedFrom() {
        CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", NOWHERE, "--from", "0:x");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("riffle: Invalid value for option '--from': '0:x' is not BUCKET:OFFSET")
                .endsWith("(see 'riffle read --help')");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void malformedUntilTime() {
        CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", NOWHERE, "--until", "2024-06-31T00:00:00Z");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("riffle: Invalid value for option '--until': '2024-06-31T00:00:00Z' is not a valid time");
    }

    @Test
    void unknownFormat() {
        CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", NOWHERE, "--format", "xml");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("riffle: Invalid value for option '--format': 'xml' is not a format;"
                + " expected one of csv, json, arrow (see 'riffle read --help')" + System.lineSeparator());
    }

    @Test
    void tableNameWithoutDatabase() {
        CliRun run = CliRun.of("read", "orders", "--bootstrap-servers", NOWHERE);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("riffle: Table 'orders' must be DATABASE.TABLE");
    }

    @Test
    void emptyColumnName() {
        CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", NOWHERE, "--columns", "a,,b");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("riffle: --columns has an empty column name");
    }

    @Test
    void arrowIsNotWrittenToATerminal() {
        String before = System.getProperty(Terminal.STDOUT_PROPERTY);
        System.setProperty(Terminal.STDOUT_PROPERTY, "true");
        try {
            CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", NOWHERE, "--format", "arrow");
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err().lines()).singleElement().asString()
                    .startsWith("riffle: Refusing to write arrow (binary) to the terminal; use --out FILE");
        } finally {
            if (before == null) {
                System.clearProperty(Terminal.STDOUT_PROPERTY);
            } else {
                System.setProperty(Terminal.STDOUT_PROPERTY, before);
            }
        }
    }

    @Test
    void malformedBootstrapServers() {
        CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", "nohost");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("riffle: Invalid value for option '--bootstrap-servers':").contains("nohost");
    }

    @Test
    void nothingListening() {
        CliRun run = CliRun.of("read", "db.t", "--bootstrap-servers", NOWHERE);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("riffle: Cannot connect to Fluss at 127.0.0.1:1; is it running?"
                + " ('riffle local' starts one at 127.0.0.1:9123)" + System.lineSeparator());
    }
}
