package dev.riffle.lake.config;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.config.cluster.ConfigEntry;

/**
 * Which lake a Fluss cluster tiers into: the format ({@code paimon}) and its catalog options
 * ({@code metastore}, {@code warehouse}, ...), as the cluster's {@code datalake.format} and
 * {@code datalake.<format>.*} settings say.
 *
 * <pre>{@code
 * LakeConfig lake = LakeConfig.discover(admin).orElse(LakeConfig.paimonWarehouse("file:///data/lake"));
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

    /** The lake the cluster is configured with, if it says (its servers' datalake.* settings). */
    public static Optional<LakeConfig> discover(Admin admin) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (ConfigEntry entry : admin.describeClusterConfigs().get(60, TimeUnit.SECONDS)) {
            if (entry.key().startsWith("datalake.") && entry.value() != null) {
                settings.put(entry.key(), entry.value());
            }
        }
        String format = settings.get("datalake.format");
        if (format == null) {
            return Optional.empty();
        }
        String prefix = "datalake." + format.toLowerCase(java.util.Locale.ROOT) + ".";
        Map<String, String> options = new HashMap<>();
        settings.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                options.put(key.substring(prefix.length()), value);
            }
        });
        return options.isEmpty() ? Optional.empty() : Optional.of(new LakeConfig(format.toLowerCase(java.util.Locale.ROOT), options));
    }
}
