package dev.riffle.flight.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.junit.jupiter.api.Test;

class AcceptedCompressionTest {
    @Test
    void namesAreCaseAndSpaceInsensitive() {
        assertThat(AcceptedCompression.parse("ZSTD, lz4_frame")).containsExactlyInAnyOrder(CodecType.ZSTD,
                CodecType.LZ4_FRAME);
        assertThat(AcceptedCompression.parse(" zstd ")).containsExactly(CodecType.ZSTD);
        assertThat(AcceptedCompression.parse("")).isEmpty();
    }

    @Test
    void anUnknownCodecIsNamedInTheError() {
        FlightRuntimeException e = assertThrows(FlightRuntimeException.class,
                () -> AcceptedCompression.parse("zstd,gzip"));

        assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).contains("'gzip'").contains(AcceptedCompression.HEADER).contains("zstd, lz4_frame");
    }
}
