package dev.varroa.testfixtures.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A TCP port on 127.0.0.1 that nothing listens on at the moment it is picked, and that no other test JVM on this
 * machine picks until its child process has had time to bind it.
 *
 * <p>Surefire runs test classes in several JVMs at once, and a picked port stays unbound until the child starts:
 * each pick therefore holds an advisory lock on the byte at offset {@code port} of one shared lock file for
 * {@link #RESERVATION}. The kernel drops a JVM's locks when it exits, so a crashed fork leaves nothing behind.
 */
public final class LoopbackPort {

    public static final String HOST = "127.0.0.1";

    // Below Linux's ephemeral range (32768-60999, client sockets) and kube-api-test's own picks (49152-65535):
    // nothing else on the machine is handed one of these ports between the pick and the child's bind.
    static final int FIRST = 20000;
    static final int LAST = 32767;
    private static final int ATTEMPTS = 1000;
    // Far longer than any child takes to bind; once bound, the port fails the bind check of every later pick.
    static final Duration RESERVATION = Duration.ofMinutes(2);
    // A byte past every port: held while a server that picks its own ports (kube-api-test) starts.
    private static final long EXCLUSIVE_START_OFFSET = 70_000;
    private static final Path LOCK_FILE = Path.of(System.getProperty("java.io.tmpdir"), "varroa-loopback-ports.lock");

    private static final Object EXCLUSIVE_START = new Object();
    // port -> its lock and when it was taken; guarded by LoopbackPort.class
    private static final Map<Integer, Held> HELD = new HashMap<>();
    private static FileChannel lockFile;

    private record Held(FileLock lock, long takenNanos) {
    }

    private LoopbackPort() {
    }

    /** A free loopback port, reserved against the other test JVMs of this machine; the child binds it right after. */
    public static synchronized int pickFree() {
        releaseExpired();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = random.nextInt(FIRST, LAST + 1);
            if (HELD.containsKey(port)) {
                continue;
            }
            FileLock lock = tryReserve(port);
            if (lock == null) {
                continue;
            }
            if (!bindable(port)) {
                release(lock);
                continue;
            }
            HELD.put(port, new Held(lock, System.nanoTime()));
            return port;
        }
        throw new IllegalStateException("no free port on " + HOST + " in " + FIRST + "-" + LAST + " after " + ATTEMPTS
                + " attempts (reservations in " + LOCK_FILE + ")");
    }

    /**
     * Runs {@code start} while no other test JVM of this machine runs one: for a server that picks its ports itself
     * (bind check, close, child binds later), so two of them never pick the same port in that gap.
     */
    public static <T> T startExclusively(Supplier<T> start) {
        synchronized (EXCLUSIVE_START) {
            FileLock lock;
            try {
                lock = channel().lock(EXCLUSIVE_START_OFFSET, 1, false);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lock " + LOCK_FILE, e);
            }
            try {
                return start.get();
            } finally {
                release(lock);
            }
        }
    }

    private static FileLock tryReserve(int port) {
        try {
            return channel().tryLock(port, 1, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + LOCK_FILE + " to reserve port " + port, e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port), 1);
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    private static void releaseExpired() {
        long now = System.nanoTime();
        for (Iterator<Held> held = HELD.values().iterator(); held.hasNext(); ) {
            Held reservation = held.next();
            if (now - reservation.takenNanos() > RESERVATION.toNanos()) {
                release(reservation.lock());
                held.remove();
            }
        }
    }

    private static void release(FileLock lock) {
        try {
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release a lock on " + LOCK_FILE, e);
        }
    }

    // One channel per JVM: the OS keeps byte-range locks per process, and closing any channel would drop them all.
    private static synchronized FileChannel channel() throws IOException {
        if (lockFile == null) {
            lockFile = FileChannel.open(LOCK_FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
        return lockFile;
    }
}
