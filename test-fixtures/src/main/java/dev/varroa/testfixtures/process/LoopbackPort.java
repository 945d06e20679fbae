package dev.varroa.testfixtures.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A TCP port on 127.0.0.1 that nothing listens on at the moment it is picked. */
public final class LoopbackPort {

    public static final String HOST = "127.0.0.1";

    private LoopbackPort() {
    }

    /** Asks the kernel for an ephemeral port; the child process binds it right after. */
    public static int pickFree() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pick a free port on " + HOST, e);
        }
    }
}
