package dev.riffle.gateway.rows;

import dev.riffle.gateway.http.ApiException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.flatbuf.Message;

/**
 * Checks the framing of an Arrow IPC stream held in memory before Arrow's reader sees it: every
 * message's declared metadata and body sizes must fit in the bytes that follow. Arrow's reader
 * allocates what a message declares before reading it, so eight bytes claiming 2 GiB of
 * metadata would otherwise cost 2 GiB.
 */
final class ArrowFraming {
    private static final int CONTINUATION = 0xFFFFFFFF;

    private ArrowFraming() {}

    /**
     * @throws ApiException 400 {@code malformed_arrow} naming the message, its offset and what it
     *     declared, when a message does not fit
     */
    static void check(byte[] stream) {
        ByteBuffer bytes = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
        int position = 0;
        for (int message = 0; ; message++) {
            if (stream.length - position < 4) {
                return; // the end (Arrow's reader tells a missing end-of-stream marker apart itself)
            }
            int length = bytes.getInt(position);
            int prefix = 4;
            if (length == CONTINUATION) {
                if (stream.length - position < 8) {
                    return;
                }
                length = bytes.getInt(position + 4);
                prefix = 8;
            }
            if (length == 0) {
                return; // end-of-stream marker
            }
            long left = (long) stream.length - position - prefix;
            if (length < 0 || length > left) {
                throw malformed(message, position, Integer.toUnsignedString(length) + " bytes of metadata", left);
            }
            long bodyLength;
            try {
                ByteBuffer metadata = ByteBuffer.wrap(stream, position + prefix, length).slice()
                        .order(ByteOrder.LITTLE_ENDIAN);
                bodyLength = Message.getRootAsMessage(metadata).bodyLength();
            } catch (RuntimeException e) {
                throw ApiException.badRequest("malformed_arrow", "The body is not a readable Arrow IPC stream: "
                        + "message " + message + " at byte " + position + " has unreadable metadata");
            }
            long afterMetadata = left - length;
            if (bodyLength < 0 || bodyLength > afterMetadata) {
                throw malformed(message, position, bodyLength + " bytes of body", afterMetadata);
            }
            position += prefix + length + (int) bodyLength;
        }
    }

    private static ApiException malformed(int message, int position, String declared, long left) {
        return ApiException.badRequest("malformed_arrow", "The body is not a readable Arrow IPC stream: message "
                + message + " at byte " + position + " declares " + declared + ", but only " + left
                + " bytes follow");
    }
}
