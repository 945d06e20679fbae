package dev.varroa.testfixtures.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalProcessIT {

    // An odd duration, so the test can tell its own child from any other sleep on the machine.
    private static final String UNIQUE_SLEEP_SECONDS = "60.4242";

    @TempDir
    Path directory;

    @Test
    void reportsTheLogFileWhenTheProcessExitsBeforeReady() {
        Path log = directory.resolve("early-exit.log");

        assertThatThrownBy(() -> LocalProcess.start("early-exit",
                List.of("sh", "-c", "echo cannot bind port; exit 3"), log, Duration.ofSeconds(30), () -> false))
                .isInstanceOf(ProcessNotReadyException.class)
                .hasMessageContaining("exited with code 3")
                .hasMessageContaining("log: " + log)
                .hasMessageContaining("cannot bind port");
    }

    @Test
    void stopsTheProcessWhenTheReadinessDeadlinePasses() {
        Path log = directory.resolve("never-ready.log");

        assertThatThrownBy(() -> LocalProcess.start("never-ready",
                List.of("sleep", UNIQUE_SLEEP_SECONDS), log, Duration.ofMillis(300), () -> false))
                .isInstanceOf(ProcessNotReadyException.class)
                .hasMessageContaining("was not ready within PT0.3S")
                .hasMessageContaining("log: " + log);
        assertThat(ProcessHandle.allProcesses()
                .filter(process -> List.of(process.info().arguments().orElse(new String[0])).contains(UNIQUE_SLEEP_SECONDS)))
                .isEmpty();
    }

    @Test
    void stopsARunningProcessOnClose() throws Exception {
        LocalProcess process = LocalProcess.start("ready-at-once",
                List.of("sleep", "60"), directory.resolve("ready.log"), Duration.ofSeconds(5), () -> true);

        process.close();

        assertThat(process.isAlive()).isFalse();
    }
}
