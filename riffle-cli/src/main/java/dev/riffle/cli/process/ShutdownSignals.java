package dev.riffle.cli.process;

import sun.misc.Signal;

/**
 * Ctrl-C and SIGTERM ask a long-running command ({@code riffle local}, {@code riffle tier}) to stop
 * cleanly, so it can close what it runs and
 * exit with 0 instead of the JVM's 130/143. A second signal while stopping exits at once.
 */
public final class ShutdownSignals {
    private ShutdownSignals() {}

    public static void onStop(Runnable stop) {
        Runnable[] calls = {stop};
        boolean[] signalled = {false};
        for (String name : new String[] {"INT", "TERM"}) {
            Signal.handle(new Signal(name), signal -> {
                synchronized (signalled) {
                    if (signalled[0]) {
                        System.err.println("riffle: stopping immediately");
                        Runtime.getRuntime().halt(128 + signal.getNumber());
                    }
                    signalled[0] = true;
                }
                calls[0].run();
            });
        }
    }
}
