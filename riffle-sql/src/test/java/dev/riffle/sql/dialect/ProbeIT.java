package dev.riffle.sql.dialect;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class ProbeIT {
    @Test
    void probe(LocalCluster cluster) throws Exception {
        List<String> statements = Files.readAllLines(Path.of(System.getProperty("probe.file", "/tmp/probe.sql")));
        try (Connection sql = DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers() + ";dialect=postgresql");
                Statement statement = sql.createStatement()) {
            for (String line : statements) {
                if (line.isBlank() || line.startsWith("--")) {
                    continue;
                }
                String text = line.replace("\\n", "\n");
                try {
                    if (statement.execute(text)) {
                        try (ResultSet rs = statement.getResultSet()) {
                            StringBuilder out = new StringBuilder();
                            int n = rs.getMetaData().getColumnCount();
                            for (int i = 1; i <= n; i++) {
                                out.append(rs.getMetaData().getColumnLabel(i)).append(i < n ? "|" : "");
                            }
                            int rows = 0;
                            while (rs.next() && rows < 8) {
                                out.append("\n    ");
                                for (int i = 1; i <= n; i++) {
                                    out.append(rs.getString(i)).append(i < n ? "|" : "");
                                }
                                rows++;
                            }
                            System.out.println("OK   " + text + "\n    " + out);
                        }
                    } else {
                        System.out.println("OK   " + text + "  (" + statement.getUpdateCount() + ")");
                    }
                } catch (Exception e) {
                    Throwable root = e;
                    while (root.getCause() != null && root.getCause() != root) {
                        root = root.getCause();
                    }
                    System.out.println("FAIL " + text + "\n    " + root.getClass().getSimpleName() + ": "
                            + String.valueOf(root.getMessage()).split("\n")[0]);
                    if (Boolean.getBoolean("probe.trace")) {
                        e.printStackTrace(System.out);
                    }
                }
            }
        }
    }
}
