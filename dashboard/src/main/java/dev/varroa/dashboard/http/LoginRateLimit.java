package dev.varroa.dashboard.http;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How many logins one source may start: a token bucket per client address that holds {@code perMinute} starts and
 * refills at that rate. Each start keeps state in the BFF until the provider answers, so a single source must not
 * be able to fill it. IPv6 clients count per /64, the block one host usually holds.
 */
public final class LoginRateLimit {

  /** Login starts a minute per source, the default of VARROA_BFF_LOGIN_RATE_LIMIT. */
  public static final int DEFAULT_PER_MINUTE = 30;
  /** Beyond this many remembered sources the full buckets are forgotten (a full bucket is the same as none). */
  static final int MAX_SOURCES = 10_000;

  /** The limit and who may name the client. */
  public record Settings(int perMinute, TrustedProxies proxies) {

    public static Settings defaults() {
      return new Settings(DEFAULT_PER_MINUTE, TrustedProxies.none());
    }

    /** VARROA_BFF_LOGIN_RATE_LIMIT (a positive whole number) and VARROA_BFF_TRUSTED_PROXIES. */
    public static Settings fromEnv(Map<String, String> env) {
      int perMinute = DEFAULT_PER_MINUTE;
      String value = env.get("VARROA_BFF_LOGIN_RATE_LIMIT");
      if (value != null && !value.isBlank()) {
        try {
          perMinute = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
          perMinute = 0;
        }
        if (perMinute < 1) {
          throw new IllegalArgumentException("VARROA_BFF_LOGIN_RATE_LIMIT must be how many logins one client "
              + "address may start a minute (a whole number of 1 or more), not '" + value + "'");
        }
      }
      return new Settings(perMinute, TrustedProxies.parse("VARROA_BFF_TRUSTED_PROXIES",
          env.get("VARROA_BFF_TRUSTED_PROXIES")));
    }
  }

  private record Bucket(double tokens, long atNanos) {}

  private final int perMinute;
  private final LongSupplier nanos;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  /** @param nanos a monotonic clock in nanoseconds (System::nanoTime; a test's own) */
  public LoginRateLimit(int perMinute, LongSupplier nanos) {
    if (perMinute < 1) {
      throw new IllegalArgumentException("the login rate limit must be 1 or more a minute, not " + perMinute);
    }
    this.perMinute = perMinute;
    this.nanos = nanos;
  }

  public int perMinute() {
    return perMinute;
  }

  /** Takes one start for the source: empty when it may start a login now, else how long until it may. */
  public Optional<Duration> take(String source) {
    String key = key(source);
    long now = nanos.getAsLong();
    if (buckets.size() >= MAX_SOURCES) {
      buckets.values().removeIf(b -> refilled(b, now) >= perMinute);
    }
    Duration[] wait = {null};
    buckets.compute(key, (k, bucket) -> {
      double tokens = bucket == null ? perMinute : refilled(bucket, now);
      if (tokens >= 1) {
        return new Bucket(tokens - 1, now);
      }
      wait[0] = Duration.ofNanos((long) Math.ceil((1 - tokens) * nanosPerToken()));
      return new Bucket(tokens, now);
    });
    return Optional.ofNullable(wait[0]);
  }

  private double refilled(Bucket bucket, long now) {
    return Math.min(perMinute, bucket.tokens() + (now - bucket.atNanos()) / nanosPerToken());
  }

  private double nanosPerToken() {
    return Duration.ofMinutes(1).toNanos() / (double) perMinute;
  }

  /** IPv6 addresses count by their /64; anything else by its text. */
  static String key(String source) {
    if (source != null && source.contains(":")) {
      Optional<byte[]> bytes = TrustedProxies.literal(source);
      if (bytes.isPresent() && bytes.get().length == 16) {
        return java.util.HexFormat.of().formatHex(bytes.get(), 0, 8) + "::/64";
      }
    }
    return String.valueOf(source);
  }
}
