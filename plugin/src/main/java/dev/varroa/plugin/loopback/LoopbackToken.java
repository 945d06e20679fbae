package dev.varroa.plugin.loopback;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The mite's loopback bearer token, read from its file once and cached. After a 401 the file is read again, at most
 * once a second however many requests fail, so a restarted mite (a new token) heals after one failed request and a
 * 401 storm does not turn into a file-read storm.
 */
public final class LoopbackToken {

  /** Seed 000: the plugin re-reads the token after a 401 at most once per second. */
  public static final Duration REREAD_AFTER_401_AT_MOST_EVERY = Duration.ofSeconds(1);

  private final Path file;
  private final Clock clock;
  private String cached;
  private Instant lastReread;
  private long reads;

  public LoopbackToken(Path file, Clock clock) {
    this.file = file;
    this.clock = clock;
  }

  /** The cached token, read from the file the first time. */
  public synchronized String current() throws IOException {
    if (cached == null) {
      cached = read();
    }
    return cached;
  }

  /**
   * Called after a 401 that was answered to {@code rejected}: re-reads the file unless it was re-read less than a
   * second ago (or another request already picked up a newer token). True when the token now differs from
   * {@code rejected}, so the request is worth one more try.
   */
  public synchronized boolean refreshAfterUnauthorized(String rejected) {
    if (cached != null && !cached.equals(rejected)) {
      return true;
    }
    Instant now = clock.instant();
    if (lastReread != null && now.isBefore(lastReread.plus(REREAD_AFTER_401_AT_MOST_EVERY))) {
      return false;
    }
    lastReread = now;
    try {
      cached = read();
    } catch (IOException e) {
      cached = null;
      return false;
    }
    return !cached.equals(rejected);
  }

  /** How often the file was read: the cache and the once-a-second limit are visible here. */
  public synchronized long reads() {
    return reads;
  }

  public Path file() {
    return file;
  }

  private String read() throws IOException {
    reads++;
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IOException("cannot read the loopback token " + file + " (the mite writes it on the varroa-loopback"
          + " volume before it listens; set VARROA_LOOPBACK_TOKEN_FILE when it lives elsewhere): " + e.getMessage(), e);
    }
    if (token.isEmpty()) {
      throw new IOException("the loopback token file " + file + " is empty; the mite writes it before it listens");
    }
    return token;
  }
}
