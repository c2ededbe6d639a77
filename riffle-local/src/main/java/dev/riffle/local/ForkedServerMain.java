package dev.riffle.local;

import java.io.IOException;
import java.io.InputStream;
import org.apache.fluss.server.coordinator.CoordinatorServer;
import org.apache.fluss.server.tablet.TabletServer;

/**
 * The main class of a Fluss server that {@link ProcessCluster} forks: it hands over to the
 * {@code fluss-server} jar's own entry point ({@link CoordinatorServer#main} or
 * {@link TabletServer#main}) with the arguments a user would give it, after starting one daemon
 * thread that reads stdin. The parent holds the other end of that pipe, so when the parent goes
 * away for any reason (a test JVM killed by a timeout included) the server exits instead of
 * living on as an orphan that holds ports and data directories.
 *
 * <pre>{@code
 * java -cp ... dev.riffle.local.ForkedServerMain tablet-server --configDir conf -D tablet-server.id=0 ...
 * }</pre>
 */
public final class ForkedServerMain {

    private ForkedServerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("coordinator") || args[0].equals("tablet-server"))) {
            System.err.println("usage: ForkedServerMain coordinator|tablet-server --configDir DIR [-D key=value ...]");
            System.exit(2);
        }
        Thread watchdog = new Thread(() -> haltAtEndOfInput(System.in), "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        String[] flussArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        if (args[0].equals("coordinator")) {
            CoordinatorServer.main(flussArgs);
        } else {
            TabletServer.main(flussArgs);
        }
    }

    private static void haltAtEndOfInput(InputStream in) {
        byte[] buffer = new byte[64];
        try {
            while (in.read(buffer) >= 0) {
                // The parent never writes; anything it does write is ignored.
            }
        } catch (IOException e) {
            // A broken pipe means the same as end of input: the parent is gone.
        }
        // Java closes a child's pipes when it signals it, so end of input also comes with a plain
        // SIGTERM: exit through the shutdown hooks (a graceful stop), and halt if they hang.
        System.err.println("ForkedServerMain: the parent process is gone or stopping this server; exiting");
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(3);
        }, "halt-after-timeout");
        halt.setDaemon(true);
        halt.start();
        System.exit(3);
    }
}
