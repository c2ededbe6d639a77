package dev.riffle.gateway.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's own answers (a request it refuses before any route sees it: a URI with an encoded NUL,
 * a malformed header) in the gateway's error envelope instead of Jetty's HTML page, so every
 * answer a client gets has the same shape.
 */
public final class JettyErrors extends ErrorHandler {
    public JettyErrors() {
        setShowStacks(false);
        setShowServlet(false);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, MediaTypes.JSON);
        return ByteBuffer.wrap(Render.errorJson(envelope(status, reason)));
    }

    @Override
    protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
            HttpServletResponse response, int code, String message) throws IOException {
        byte[] body = Render.errorJson(envelope(code, message));
        response.setContentType(MediaTypes.JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        baseRequest.setHandled(true);
    }

    private static ApiException envelope(int status, String reason) {
        String text = reason == null || reason.isBlank() ? HttpStatus.getMessage(status) : reason;
        String code = status >= 500 ? "internal_error" : "invalid_request";
        return new ApiException(status, code, "The request was refused before it reached a route: " + text);
    }
}
