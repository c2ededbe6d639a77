package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * DECIMAL columns up to Fluss's precision of 38 keep every digit through SQL, written with
 * literals or {@code ?} parameters and found by key; a value that does not fit its column is an
 * error naming the column, never a NULL or a rounded number.
 */
@ExtendWith(LocalClusterExtension.class)
class DecimalPrecisionIT {
    private static final String WIDE = "-1234567890123456.1234";
    private static final String WIDEST = "1234567890123456789012345678.0123456789";

    @Test
    void literalsAndParametersKeepEveryDigitUpToPrecision38(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("dec");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".amounts (id INT, d20 DECIMAL(20, 4), d38 DECIMAL(38, 10),"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".amounts VALUES (1, " + WIDE + ", " + WIDEST
                    + ")")).isEqualTo(1);
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".amounts VALUES (?, ?, ?)")) {
                insert.setInt(1, 2);
                insert.setBigDecimal(2, new BigDecimal(WIDE));
                insert.setBigDecimal(3, new BigDecimal(WIDEST));
                assertThat(insert.executeUpdate()).isEqualTo(1);
                insert.setInt(1, 3);
                insert.setObject(2, new BigDecimal(WIDE));
                insert.setObject(3, new BigDecimal(WIDEST));
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            assertThat(query(sql, "SELECT id, d20, d38 FROM " + db + ".amounts ORDER BY id")).containsExactly(
                    "1|" + WIDE + "|" + WIDEST, "2|" + WIDE + "|" + WIDEST, "3|" + WIDE + "|" + WIDEST);
            assertThat(query(sql, "SELECT d38 FROM " + db + ".amounts WHERE id = 2")).containsExactly(WIDEST);
        }
    }

    @Test
    void aValueThatDoesNotFitItsColumnIsAnErrorNotANull(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("decfit");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".amounts (id INT, d DECIMAL(6, 2)) WITH ('bucket.num' = '1')");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".amounts VALUES (1, 123456.5)"))
                    .isInstanceOf(SQLException.class);
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".amounts VALUES (?, ?)")) {
                insert.setInt(1, 2);
                insert.setBigDecimal(2, new BigDecimal("123456.5"));
                assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class)
                        .hasMessageContaining("123456.5").hasMessageContaining("DECIMAL(6, 2)");
                insert.setInt(1, 3);
                insert.setBigDecimal(2, new BigDecimal(WIDEST));
                assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class);
            }
            assertThat(query(sql, "SELECT count(*) FROM " + db + ".amounts")).containsExactly("0");
        }
    }
}
