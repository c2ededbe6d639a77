package dev.riffle.gateway;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** One HTTP/1.1 keep-alive connection, written and read by hand (lengths and chunked bodies). */
final class RawConnection implements AutoCloseable {
    private final URI base;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    RawConnection(URI base) throws IOException {
        this(base, new Socket(base.getHost(), base.getPort()));
    }

    private RawConnection(URI base, Socket socket) throws IOException {
        this.base = base;
        this.socket = socket;
        socket.setSoTimeout(30_000); // a request stuck on the selector fails here
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    /** A connection whose socket takes in at most about {@code bytes} before its client reads (a slow reader). */
    static RawConnection withReceiveBuffer(URI base, int bytes) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(bytes); // before connecting, so the window is offered small
        socket.connect(new InetSocketAddress(base.getHost(), base.getPort()));
        return new RawConnection(base, socket);
    }

    /**
     * Reads whatever the server still sends until it ends the connection (a close, or a reset),
     * and returns it; fails if it does not end it within the read timeout (30 s).
     */
    byte[] readToEnd() throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] chunk = new byte[64 * 1024];
        try {
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                all.write(chunk, 0, n);
            }
        } catch (SocketException e) {
            // A reset: the server closed with bytes of ours unread. The connection ended all the same.
        }
        return all.toByteArray();
    }

    RawResponse postJson(String path, String json) throws IOException {
        return send("POST " + path, Map.of("Content-Type", "application/json"), json.getBytes(UTF_8));
    }

    RawResponse send(String requestLine, Map<String, String> headers, byte[] body) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(headers);
        if (body != null) {
            all.put("Content-Length", String.valueOf(body.length));
        }
        writeHead(requestLine, all);
        if (body != null) {
            writeBody(body);
        }
        return read();
    }

    void writeHead(String requestLine, Map<String, String> headers) throws IOException {
        StringBuilder head = new StringBuilder(requestLine).append(" HTTP/1.1\r\nHost: ").append(base.getHost())
                .append(':').append(base.getPort()).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        out.write(head.append("\r\n").toString().getBytes(UTF_8));
        out.flush();
    }

    void writeBody(byte[] body) throws IOException {
        out.write(body);
        out.flush();
    }

    /** Bytes as they are, however they split a request. */
    void writeRaw(String bytes) throws IOException {
        writeBody(bytes.getBytes(UTF_8));
    }

    /** Ends what this client sends; what the server still answers can be read. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /**
     * Whether the server closed the connection (after whatever was read) within five seconds,
     * well before its idle timeout (30 s) could close it instead.
     */
    boolean closedByServer() throws IOException {
        socket.setSoTimeout(5_000);
        try {
            return in.read() < 0;
        } finally {
            socket.setSoTimeout(30_000);
        }
    }

    RawResponse read() throws IOException {
        String statusLine = line();
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(); !line.isEmpty(); line = line()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        if (status == 100) {
            return new RawResponse(status, headers, new byte[0]);
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
                    size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                body.write(in.readNBytes(size));
                line();
            }
            while (!line().isEmpty()) {
                // trailers
            }
            return new RawResponse(status, headers, body.toByteArray());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        return new RawResponse(status, headers, in.readNBytes(length));
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("The server closed the connection");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
