package dev.varroa.testfixtures.process;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LoopbackPortIT {

    // Enough picks that two JVMs drawing from ~12,800 ports without reservations would very likely share one.
    private static final int PICKS = 400;

    /** Run in a second JVM: picks and prints ports, then waits for stdin to close so its reservations outlive ours. */
    public static void main(String[] args) throws IOException {
        StringBuilder ports = new StringBuilder();
        for (int i = 0; i < Integer.parseInt(args[0]); i++) {
            ports.append(LoopbackPort.pickFree()).append(' ');
        }
        System.out.println(ports.toString().strip());
        System.out.flush();
        System.in.read();
    }

    @Test
    void picksPortsOutsideTheEphemeralRangeThatABindCanTake() throws Exception {
        int port = LoopbackPort.pickFree();

        assertThat(port).isBetween(LoopbackPort.FIRST, LoopbackPort.LAST).isLessThan(32768);
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(LoopbackPort.HOST, port));
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void anotherJvmNeverPicksAPortThisOneHoldsNorTheOtherWayRound() throws Exception {
        Set<Integer> mine = new HashSet<>();
        for (int i = 0; i < PICKS; i++) {
            mine.add(LoopbackPort.pickFree());
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process other = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                LoopbackPortIT.class.getName(), Integer.toString(PICKS))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Integer> theirs = new ArrayList<>();
        try {
            String line = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            Arrays.stream(line.strip().split("\\s+")).map(Integer::parseInt).forEach(theirs::add);
            // While the other JVM still holds its picks, this one avoids them too.
            for (int i = 0; i < PICKS; i++) {
                mine.add(LoopbackPort.pickFree());
            }
        } finally {
            other.getOutputStream().close();
            assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(theirs).hasSize(PICKS).doesNotHaveDuplicates().doesNotContainAnyElementsOf(mine);
        assertThat(mine).hasSize(2 * PICKS);
    }
}
