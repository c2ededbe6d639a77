package dev.riffle.bench;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Locale;

/**
 * A minimal HTTP/1.1 client for load generation: one persistent (keep-alive) connection, one
 * request at a time, as a load generator like wrk drives a server. The JDK's HttpClient spends
 * several times the gateway's own CPU per small request on its asynchronous machinery, and in a
 * benchmark that shares two cores with the server that cost was measured as the server's.
 * Not thread-safe: one per client thread.
 */
final class HttpBenchmarkClient implements AutoCloseable {
    private final String host;
    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    /** A status and a body. */
    record Response(int status, byte[] body) {
        String text() {
            return new String(body, UTF_8);
        }
    }

    HttpBenchmarkClient(URI base) {
        requireNonNull(base, "base is null");
        this.host = base.getHost();
        this.port = base.getPort();
    }

    Response get(String path) throws IOException {
        return send("GET", path, null, null);
    }

    Response post(String path, String contentType, byte[] body) throws IOException {
        return send("POST", path, contentType, body);
    }

    private Response send(String method, String path, String contentType, byte[] body) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        }
        StringBuilder head = new StringBuilder(128).append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(':').append(port).append("\r\n");
        if (body != null) {
            head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length)
                    .append("\r\n");
        }
        out.write(head.append("\r\n").toString().getBytes(ISO_8859_1));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return read();
    }

    private Response read() throws IOException {
        String status = line();
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
                    size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                body.write(in.readNBytes(size));
                line();
            }
            while (!line().isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            byte[] bytes = in.readNBytes((int) length);
            if (bytes.length < length) {
                throw new EOFException("The body ended after " + bytes.length + " of " + length + " bytes");
            }
            body.write(bytes);
        } else {
            body.write(in.readAllBytes());
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(code, body.toByteArray());
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("The connection closed mid-answer");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }
}
