package dev.riffle.local;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Startup problems a user can fix come back as one clear line, before anything starts. */
class LocalClusterStartupErrorsTest {

    @Test
    void portInUseIsNamed(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> LocalCluster.builder().dataDir(dataDir).coordinatorPort(port).start())
                    .isInstanceOf(LocalClusterException.class)
                    .hasMessage("Port " + port + " is already in use; choose another port (0 picks a free one)");
        }
    }

    @Test
    void unwritableDataDirectoryIsNamed(@TempDir Path tmp) throws Exception {
        // A path below a regular file cannot be created, even by root (chmod would not stop root).
        Path file = Files.createFile(tmp.resolve("not-a-directory"));
        Path dataDir = file.resolve("data");
        assertThatThrownBy(() -> LocalCluster.builder().dataDir(dataDir).start())
                .isInstanceOf(LocalClusterException.class)
                .hasMessageStartingWith("Data directory " + dataDir + " is not writable");
    }

    @Test
    void aDataDirectoryInUseIsRefused(@TempDir Path dataDir) throws Exception {
        try (LocalCluster first = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start()) {
            assertThatThrownBy(() -> LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start())
                    .isInstanceOf(LocalClusterException.class)
                    .hasMessageContaining("is in use by another Riffle cluster");
        }
    }
}
