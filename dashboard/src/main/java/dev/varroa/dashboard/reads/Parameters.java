package dev.varroa.dashboard.reads;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The query parameters of a read, checked one by one: a value that does not fit is refused naming the parameter
 * and what it accepts. The same checks serve the HTTP routes and the MCP tools.
 */
public final class Parameters {

  private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

  private final Map<String, String> values;

  public Parameters(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  public Optional<String> text(String name) {
    return Optional.ofNullable(values.get(name)).filter(v -> !v.isEmpty());
  }

  /** A cluster name (as registered: a DNS subdomain). */
  public Optional<String> cluster(String name) throws ReadRefused {
    return matching(name, DNS_SUBDOMAIN, "a cluster name (lower-case letters, digits, '-' and '.')");
  }

  public Optional<String> namespace(String name) throws ReadRefused {
    return matching(name, DNS_LABEL, "a namespace name (a DNS label: lower-case letters, digits and '-')");
  }

  public Optional<String> controller(String name) throws ReadRefused {
    return matching(name, DNS_SUBDOMAIN, "a Controller name (lower-case letters, digits, '-' and '.')");
  }

  /** A CellPool name (a DNS subdomain, as the Team's spec.pool). */
  public Optional<String> pool(String name) throws ReadRefused {
    return matching(name, DNS_SUBDOMAIN, "a CellPool name (lower-case letters, digits, '-' and '.')");
  }

  /** A Team name (a DNS subdomain, as any custom resource's). */
  public Optional<String> team(String name) throws ReadRefused {
    return matching(name, DNS_SUBDOMAIN, "a Team name (lower-case letters, digits, '-' and '.')");
  }

  public Optional<Boolean> bool(String name) throws ReadRefused {
    Optional<String> value = text(name);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    return switch (value.get()) {
      case "true" -> Optional.of(true);
      case "false" -> Optional.of(false);
      default -> throw ReadRefused.badParameter(name, name + " must be true or false, not '" + value.get() + "'");
    };
  }

  public int integer(String name, int fallback, int min, int max) throws ReadRefused {
    Optional<String> value = text(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value.get());
      if (n < min || n > max) {
        throw ReadRefused.badParameter(name, name + " must be between " + min + " and " + max + ", not " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw ReadRefused.badParameter(name, name + " must be a whole number between " + min + " and " + max
          + ", not '" + value.get() + "'");
    }
  }

  public long offset(String name) throws ReadRefused {
    Optional<String> value = text(name);
    if (value.isEmpty()) {
      return 0;
    }
    try {
      long n = Long.parseLong(value.get());
      if (n < 0) {
        throw ReadRefused.badParameter(name, name + " must be a byte offset of 0 or more, not " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw ReadRefused.badParameter(name, name + " must be a byte offset (a whole number), not '" + value.get() + "'");
    }
  }

  public Optional<Long> positive(String name) throws ReadRefused {
    Optional<String> value = text(name);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      long n = Long.parseLong(value.get());
      if (n < 1) {
        throw ReadRefused.badParameter(name, name + " must be 1 or more, not " + n);
      }
      return Optional.of(n);
    } catch (NumberFormatException e) {
      throw ReadRefused.badParameter(name, name + " must be a whole number, not '" + value.get() + "'");
    }
  }

  /** A time in RFC 3339, e.g. 2026-12-01T10:00:00Z. */
  public Optional<Instant> time(String name) throws ReadRefused {
    Optional<String> value = text(name);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(java.time.OffsetDateTime.parse(value.get()).toInstant());
    } catch (DateTimeParseException e) {
      throw ReadRefused.badParameter(name, name + " must be a time in RFC 3339, e.g. 2026-12-01T10:00:00Z, not '"
          + value.get() + "'");
    }
  }

  private Optional<String> matching(String name, Pattern pattern, String what) throws ReadRefused {
    Optional<String> value = text(name);
    if (value.isPresent() && (value.get().length() > 253 || !pattern.matcher(value.get()).matches())) {
      throw ReadRefused.badParameter(name, name + " must be " + what + ", not '" + value.get() + "'");
    }
    return value;
  }
}
