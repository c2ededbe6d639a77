package dev.riffle.cli.option;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import picocli.CommandLine.Option;

/**
 * {@code --client-option KEY=VALUE}: Fluss client options as Fluss names them, for the commands
 * that connect to a cluster; for example the credentials of the cluster's remote storage on S3
 * ({@code --client-option client.fs.s3.endpoint=http://minio:9000}).
 */
public final class FlussClientOptions {

    @Option(names = "--client-option", paramLabel = "KEY=VALUE",
            description = "A Fluss client option, as Fluss names it; repeatable. To read a cluster's remote storage"
                    + " on S3: --client-option client.fs.s3.endpoint=URL --client-option client.fs.s3.access-key=KEY"
                    + " --client-option client.fs.s3.secret-key=SECRET"
                    + " --client-option client.fs.s3.path.style.access=true.")
    Map<String, String> options = new LinkedHashMap<>();

    /** The client settings of a command: {@code bootstrapServers}, with these options set over them. */
    public Configuration clientConfig(String bootstrapServers) {
        Configuration conf = new Configuration();
        conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        return applyTo(conf);
    }

    /** Whether any option was given (then a one-shot command connects itself rather than through a gateway). */
    public boolean given() {
        return !options.isEmpty();
    }

    /** {@code conf} with these options set over it. */
    public Configuration applyTo(Configuration conf) {
        options.forEach(conf::setString);
        return conf;
    }
}
