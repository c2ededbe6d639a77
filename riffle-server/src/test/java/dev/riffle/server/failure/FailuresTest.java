package dev.riffle.server.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.exception.RemoteStorageUnavailableException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void anUnreachableRemoteStorageIsARetriableUnavailabilityWithTheStoresMessage() {
        Failures.Failure failure = Failures.classify(new CompletionException(new RemoteStorageUnavailableException(
                "Cannot read remote log segment s3://fluss/remote/log/x.log of bucket 0 at offset 0: connect timed out",
                new IOException("connect timed out"))));
        assertThat(failure.kind()).isEqualTo(FailureKind.UNAVAILABLE);
        assertThat(failure.code()).isEqualTo("remote_storage_unavailable");
        assertThat(failure.message()).contains("s3://fluss/remote/log/x.log").contains("connect timed out");
    }

    @Test
    void aSyntaxErrorSaysWhereAndWhatWithoutTheParsersListOfAlternatives() {
        String sql = "SELEC 1";
        Failures.Failure failure = SqlFailures.classify(new java.sql.SQLException("Error while preparing statement ["
                + sql + "]", new IllegalStateException("Encountered \"SELEC\" at line 1, column 1.\n"
                + "Was expecting one of:\n    \"SELECT\" ...\n    \"VALUES\" ...\n")), sql);
        assertThat(failure.message()).isEqualTo("Error while preparing statement [SELEC 1]: Encountered \"SELEC\" at"
                + " line 1, column 1.");
    }

    @Test
    void anExpiredLogIsAConflictAndAnUnknownFailureShowsOnlyAnId() {
        assertThat(Failures.classify(new LogExpiredException("bucket 0 expired", null)).code()).isEqualTo("log_expired");
        Failures.Failure internal = Failures.classify(new IllegalStateException("secret detail"));
        assertThat(internal.kind()).isEqualTo(FailureKind.INTERNAL);
        assertThat(internal.message()).doesNotContain("secret detail").contains("error id");
    }

    @Test
    void aValueThatDoesNotFitIsCodedByHowWhenItsCauseSays() {
        Exception outOfRange = new java.sql.SQLException("Error while executing SQL", new InvalidValueException(
                "Value 300 (Integer) does not fit column b of type TINYINT", new ArithmeticException("out of range")));
        assertThat(SqlFailures.classify(outOfRange, "INSERT ...").code()).isEqualTo("numeric_out_of_range");
        Exception notANumber = new InvalidValueException("Value x (String) does not fit column i of type INT",
                new NumberFormatException("For input string: \"x\""));
        assertThat(Failures.classify(notANumber).code()).isEqualTo("invalid_text_representation");
        Exception badPattern = new InvalidValueException("invalid regular expression: Unclosed group in '('",
                new java.util.regex.PatternSyntaxException("Unclosed group", "(", 1));
        assertThat(Failures.classify(badPattern).code()).isEqualTo("invalid_regular_expression");
        Failures.Failure plain = Failures.classify(new InvalidValueException("null where INT NOT NULL is required"));
        assertThat(plain.kind()).isEqualTo(FailureKind.INVALID_ARGUMENT);
        assertThat(plain.code()).isEqualTo("invalid_value");
    }
}
