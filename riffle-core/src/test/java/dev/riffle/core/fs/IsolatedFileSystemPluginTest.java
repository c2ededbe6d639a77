package dev.riffle.core.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.fluss.config.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IsolatedFileSystemPluginTest {

    @Test
    void aClientsFileSystemOptionsReachThePluginWithoutTheirPrefix() {
        Configuration client = Configuration.fromMap(Map.of("bootstrap.servers", "fluss:9123",
                "client.fs.s3.endpoint", "http://minio:9000", "client.fs.s3.access-key", "riffle",
                "s3.access-key", "given-plainly"));
        Map<String, String> options = IsolatedFileSystemPlugin.withClientOptionsUnprefixed(client).toMap();
        assertThat(options).containsEntry("s3.endpoint", "http://minio:9000")
                .as("an option given without the prefix wins").containsEntry("s3.access-key", "given-plainly")
                .containsEntry("client.fs.s3.endpoint", "http://minio:9000")
                .containsEntry("bootstrap.servers", "fluss:9123");
    }

    @Test
    void s3PathsWithoutThePluginFailNamingWhatIsMissing(@TempDir Path plugins) throws Exception {
        // Surefire points riffle.plugins.dir at target/plugins, which riffle-core does not fill.
        Path configured = FileSystemPluginDirectory.configured().orElseThrow();
        assertThat(configured).doesNotExist();
        assertThatThrownBy(() -> new IsolatedFileSystemPlugin.S3().create(URI.create("s3://bucket/remote"),
                new Configuration())).isInstanceOf(IOException.class).hasMessageContaining(configured.toString())
                .hasMessageContaining("does not exist");

        // A plugin directory without an S3 plugin in it: nothing serves s3://.
        assertThat(FileSystemPluginDirectory.of(plugins).plugin("s3")).isEmpty();
    }
}
