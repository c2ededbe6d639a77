package dev.riffle.cli.running;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The records of running gateways: who finds what, and what is left when a gateway stops. */
class RunningGatewaysTest {

    @Test
    void aPublishedGatewayIsFoundByTheSameServersInAnyOrderAndGoneOnceClosed(@TempDir Path dir) throws Exception {
        RunningGateways gateways = new RunningGateways(dir.resolve("run"));
        try (RunningGateways.Publication published = gateways.publish("127.0.0.1:9123,127.0.0.1:9124",
                "http://0.0.0.0:8080")) {
            assertThat(gateways.find("localhost:9124, 127.0.0.1:9123")).hasValueSatisfying(gateway -> {
                assertThat(gateway.pid()).isEqualTo(ProcessHandle.current().pid());
                // A gateway on every interface is reached on loopback.
                assertThat(gateway.url().toString()).isEqualTo("http://127.0.0.1:8080");
            });
            assertThat(gateways.find("127.0.0.1:9125")).isEmpty();
            assertThat(Files.getPosixFilePermissions(dir.resolve("run")))
                    .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                            PosixFilePermission.OWNER_EXECUTE));
        }
        assertThat(gateways.find("127.0.0.1:9123,127.0.0.1:9124")).isEmpty();
        try (var left = Files.list(dir.resolve("run"))) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aDirectoryThatCannotBeWrittenLeavesTheGatewayRunningUnpublished(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-directory"), "x");
        RunningGateways gateways = new RunningGateways(file.resolve("run"));
        try (RunningGateways.Publication published = gateways.publish("127.0.0.1:9123", "http://127.0.0.1:8080")) {
            assertThat(gateways.find("127.0.0.1:9123")).isEmpty();
        }
    }

    @Test
    void serversAreComparedAsASetOfAddresses() {
        assertThat(RunningGateways.normalized(" LOCALHOST:1 ,127.0.0.1:2,")).isEqualTo("127.0.0.1:1,127.0.0.1:2");
        assertThat(RunningGateways.normalized("host-a:1")).isNotEqualTo(RunningGateways.normalized("host-b:1"));
    }
}
