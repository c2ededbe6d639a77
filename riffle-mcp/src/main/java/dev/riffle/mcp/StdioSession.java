package dev.riffle.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * An MCP session over a process's stdin and stdout: it ends when stdin does (the agent closed
 * it, or went away).
 *
 * <pre>{@code
 * mcp.serveStdio(System.in, System.out).await();
 * }</pre>
 */
public final class StdioSession {
    private final CountDownLatch ended = new CountDownLatch(1);
    private final InputStream input;

    StdioSession(InputStream in) {
        this.input = new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                return ended(super.read());
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                return ended(super.read(buffer, offset, length));
            }
        };
    }

    InputStream input() {
        return input;
    }

    /** Waits until stdin ends. */
    public void await() throws InterruptedException {
        ended.await();
    }

    private int ended(int read) {
        if (read < 0) {
            ended.countDown();
        }
        return read;
    }
}
