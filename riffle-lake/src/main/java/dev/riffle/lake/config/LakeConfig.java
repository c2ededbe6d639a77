package dev.riffle.lake.config;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.rpc.RetryingAdmin;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.config.cluster.ConfigEntry;

/**
 * Which lake a Fluss cluster tiers into: the format ({@code paimon}) and its catalog options
 * ({@code metastore}, {@code warehouse}, ...), as the {@code datalake.format} and
 * {@code datalake.<format>.*} settings say: the client's own settings when it has them (so a
 * client can point at the lake the way the cluster does, with the same keys), else the cluster's.
 *
 * <pre>{@code
 * Optional<LakeConfig> lake = LakeConfig.of(connection);   // e.g. paimon {metastore=filesystem, warehouse=...}
 * }</pre>
 */
public record LakeConfig(String format, Map<String, String> options) {
    public LakeConfig {
        requireNonNull(format, "format is null");
        options = Map.copyOf(options);
    }

    /** A Paimon filesystem warehouse, e.g. {@code file:///data/lake} or {@code s3://bucket/lake}. */
    public static LakeConfig paimonWarehouse(String warehouse) {
        return new LakeConfig("paimon", Map.of("metastore", "filesystem", "warehouse", warehouse));
    }

    /** The client settings that name {@code lake}, for a client configuration. */
    public Map<String, String> asClientSettings() {
        Map<String, String> settings = new HashMap<>();
        settings.put("datalake.format", format);
        options.forEach((key, value) -> settings.put("datalake." + format + "." + key, value));
        return settings;
    }

    /** The lake of {@code connection}'s cluster: named by the client's settings, or else by the cluster's. */
    public static Optional<LakeConfig> of(FlussConnection connection) throws Exception {
        Optional<LakeConfig> own = fromSettings(connection.getConfiguration().toMap());
        return own.isPresent() ? own : discover(RetryingAdmin.of(connection));
    }

    /** The lake the cluster is configured with, if it says (its servers' datalake.* settings). */
    public static Optional<LakeConfig> discover(Admin admin) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (ConfigEntry entry : admin.describeClusterConfigs().get(60, TimeUnit.SECONDS)) {
            if (entry.value() != null) {
                settings.put(entry.key(), entry.value());
            }
        }
        return fromSettings(settings);
    }

    /** The lake {@code datalake.*} settings name, if they name one. */
    static Optional<LakeConfig> fromSettings(Map<String, String> settings) {
        String format = settings.get("datalake.format");
        if (format == null || format.isBlank()) {
            return Optional.empty();
        }
        String lower = format.toLowerCase(Locale.ROOT);
        String prefix = "datalake." + lower + ".";
        Map<String, String> options = new HashMap<>();
        settings.forEach((key, value) -> {
            if (key.startsWith(prefix) && value != null) {
                options.put(key.substring(prefix.length()), value);
            }
        });
        return options.isEmpty() ? Optional.empty() : Optional.of(new LakeConfig(lower, options));
    }
}
