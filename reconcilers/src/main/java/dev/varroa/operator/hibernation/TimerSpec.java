package dev.varroa.operator.hibernation;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One job's TimerTrigger spec in Jenkins' cron syntax, parsed as Jenkins parses it ({@code hudson.scheduler.CronTab}
 * and {@code CronTabList}): five fields (minute, hour, day of month, month, day of week) with {@code *}, ranges,
 * steps, lists, {@code H}, {@code H(a-b)} and {@code H/n} hashed by the job's full name; the aliases {@code @hourly},
 * {@code @daily}, {@code @midnight}, {@code @weekly}, {@code @monthly}, {@code @yearly} and {@code @annually};
 * comment lines; and a {@code TZ=} first line. As in Jenkins, a minute matches when every field matches (day of month
 * and day of week together), and the lines of one spec are alternatives.
 */
public final class TimerSpec {
  /** How far ahead a fire time is looked for; a spec that matches no day in that time (31 February) never fires. */
  static final Duration HORIZON = Duration.ofDays(366L * 8);
  private static final String[] FIELD_NAMES = {"minute", "hour", "day-of-month", "month", "day-of-week"};
  private static final int[] LOWER = {0, 0, 1, 1, 0};
  private static final int[] UPPER = {59, 23, 31, 12, 7};
  /** Jenkins hashes H in day-of-month within 1-28, valid in every month, and day-of-week within 0-6 (7 is 0 again). */
  private static final int[] HASH_UPPER = {59, 23, 28, 12, 6};
  private static final Map<String, String> ALIASES = Map.of(
      "yearly", "H H H H *",
      "annually", "H H H H *",
      "monthly", "H H H * *",
      "weekly", "H H * * H",
      "daily", "H H * * *",
      "midnight", "H H(0-2) * * *",
      "hourly", "H * * * *");
  private static final String TZ_PREFIX = "TZ=";

  /** One line: a bit per allowed value of each field, and the zone it is read in. */
  record CronLine(String text, long minutes, long hours, long days, long months, long daysOfWeek, ZoneId zone) {
    boolean matchesDay(LocalDate date) {
      return bit(months, date.getMonthValue()) && bit(days, date.getDayOfMonth())
          && bit(daysOfWeek, cronDayOfWeek(date.getDayOfWeek()));
    }
  }

  private final String job;
  private final List<CronLine> lines;

  private TimerSpec(String job, List<CronLine> lines) {
    this.job = job;
    this.lines = List.copyOf(lines);
  }

  /**
   * @param job the job's full name, which seeds {@code H} as in Jenkins
   * @param specLines the spec's lines as Jenkins stores them (the plugin drops comments and blank lines)
   * @param jenkinsZone the zone of Jenkins' JVM, which lines without {@code TZ=} are read in
   * @throws CronSyntaxException naming the job, the line and the field
   */
  public static TimerSpec parse(String job, List<String> specLines, ZoneId jenkinsZone) {
    return parse(job, specLines, jenkinsZone, JobHash.of(job));
  }

  static TimerSpec parse(String job, List<String> specLines, ZoneId jenkinsZone, JobHash hash) {
    List<CronLine> parsed = new ArrayList<>();
    ZoneId zone = jenkinsZone;
    boolean first = true;
    for (String raw : specLines) {
      String line = raw.strip();
      if (first && line.startsWith(TZ_PREFIX)) {
        String id = line.substring(TZ_PREFIX.length());
        if (!ZoneId.getAvailableZoneIds().contains(id)) {
          throw new CronSyntaxException("job " + job + ": timer spec line '" + line + "': '" + id
              + "' is not a time zone Jenkins knows; fix: use a region id such as Europe/Paris");
        }
        zone = ZoneId.of(id);
        first = false;
        continue;
      }
      first = false;
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      parsed.add(new LineParser(job, line, hash).parse(zone));
    }
    return new TimerSpec(job, parsed);
  }

  public String job() {
    return job;
  }

  List<CronLine> lines() {
    return lines;
  }

  /** The first minute strictly after {@code after} at which Jenkins fires the job; empty when it never does. */
  public Optional<Instant> nextFireAfter(Instant after) {
    Instant from = after.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
    return lines.stream().map(line -> next(line, from)).flatMap(Optional::stream).min(Instant::compareTo);
  }

  private static Optional<Instant> next(CronLine line, Instant from) {
    LocalDateTime start = LocalDateTime.ofInstant(from, line.zone());
    LocalDate date = start.toLocalDate();
    LocalDate last = date.plusDays(HORIZON.toDays());
    boolean firstDay = true;
    for (; !date.isAfter(last); date = date.plusDays(1), firstDay = false) {
      if (!line.matchesDay(date)) {
        continue;
      }
      for (int hour = firstDay ? start.getHour() : 0; hour <= 23; hour++) {
        if (!bit(line.hours(), hour)) {
          continue;
        }
        int fromMinute = firstDay && hour == start.getHour() ? start.getMinute() : 0;
        for (int minute = fromMinute; minute <= 59; minute++) {
          if (!bit(line.minutes(), minute)) {
            continue;
          }
          // a local time in a daylight-saving gap moves forward; one that repeats takes its first instant
          Instant at = ZonedDateTime.of(date.atTime(hour, minute), line.zone()).toInstant();
          if (!at.isBefore(from)) {
            return Optional.of(at);
          }
        }
      }
    }
    return Optional.empty();
  }

  private static boolean bit(long bits, int value) {
    return (bits & (1L << value)) != 0;
  }

  /** Jenkins' day-of-week numbers: 0 (and 7) Sunday, 1 Monday ... 6 Saturday. */
  static int cronDayOfWeek(DayOfWeek day) {
    return day.getValue() % 7;
  }

  /** Reads one line field by field, drawing from the job's hash in the order Jenkins does. */
  private static final class LineParser {
    private final String job;
    private final String line;
    private final JobHash hash;
    private String field;
    private int position;
    private int index;

    LineParser(String job, String line, JobHash hash) {
      this.job = job;
      this.line = line;
      this.hash = hash;
    }

    CronLine parse(ZoneId zone) {
      String fields = line;
      if (line.startsWith("@")) {
        String alias = line.substring(1);
        fields = ALIASES.get(alias);
        if (fields == null) {
          throw new CronSyntaxException("job " + job + ": timer spec line '" + line + "': @" + alias
              + " is not an alias Jenkins knows; fix: use @hourly, @daily, @midnight, @weekly, @monthly, @yearly or"
              + " @annually");
        }
      }
      String[] parts = fields.split("[ \t]+");
      if (parts.length != 5) {
        throw new CronSyntaxException("job " + job + ": timer spec line '" + line + "' has " + parts.length
            + " fields; fix: give five, minute hour day-of-month month day-of-week (e.g. H 2 * * 1-5)");
      }
      long[] bits = new long[5];
      for (index = 0; index < 5; index++) {
        field = parts[index];
        position = 0;
        bits[index] = expression();
      }
      if ((bits[4] & (1L << 7)) != 0) {
        // 7 is Sunday as well as 0
        bits[4] = (bits[4] | 1L) & ~(1L << 7);
      }
      return new CronLine(line, bits[0], bits[1], bits[2], bits[3], bits[4], zone);
    }

    private long expression() {
      long bits = term();
      while (position < field.length() && field.charAt(position) == ',') {
        position++;
        bits |= term();
      }
      if (position != field.length()) {
        throw error("unexpected '" + field.substring(position) + "'");
      }
      return bits;
    }

    private long term() {
      if (accept('*')) {
        return range(LOWER[index], UPPER[index], step());
      }
      if (accept('H')) {
        int start = LOWER[index];
        int end = HASH_UPPER[index];
        if (accept('(')) {
          start = number();
          expect('-');
          end = number();
          expect(')');
        }
        return hashed(start, end, step());
      }
      int start = number();
      if (accept('-')) {
        int end = number();
        return range(start, end, step());
      }
      if (position < field.length() && field.charAt(position) == '/') {
        throw error("a step needs a range before it (" + start + "-" + UPPER[index] + "/n or */n), not a single value");
      }
      check(start);
      return 1L << start;
    }

    private int step() {
      return accept('/') ? number() : 1;
    }

    private long range(int start, int end, int step) {
      check(start);
      check(end);
      if (step <= 0) {
        throw error("step " + step + " must be positive");
      }
      if (start > end) {
        throw error("range " + start + "-" + end + " runs backwards");
      }
      long bits = 0;
      for (int value = start; value <= end; value += step) {
        bits |= 1L << value;
      }
      return bits;
    }

    private long hashed(int start, int end, int step) {
      check(start);
      check(end);
      int span = end - start + 1;
      if (step <= 0) {
        throw error("step " + step + " must be positive");
      }
      if (step > span) {
        throw error("step " + step + " is outside 1-" + span + " for H(" + start + "-" + end + ")");
      }
      if (step == 1) {
        // H alone (or H/1) picks one value, not every value
        return 1L << (start + hash.next(span));
      }
      long bits = 0;
      for (int value = start + hash.next(step); value <= end; value += step) {
        bits |= 1L << value;
      }
      return bits;
    }

    private void check(int value) {
      if (value < LOWER[index] || value > UPPER[index]) {
        throw error(value + " is outside " + LOWER[index] + "-" + UPPER[index]);
      }
    }

    private int number() {
      int start = position;
      while (position < field.length() && Character.isDigit(field.charAt(position))) {
        position++;
      }
      if (start == position) {
        throw error(position < field.length() ? "unexpected '" + field.charAt(position) + "'" : "a number is missing");
      }
      try {
        return Integer.parseInt(field.substring(start, position));
      } catch (NumberFormatException e) {
        throw error(field.substring(start, position) + " is not a number in range");
      }
    }

    private boolean accept(char c) {
      if (position < field.length() && field.charAt(position) == c) {
        position++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!accept(c)) {
        throw error("'" + c + "' expected");
      }
    }

    private CronSyntaxException error(String problem) {
      return new CronSyntaxException("job " + job + ": timer spec line '" + line + "': " + FIELD_NAMES[index]
          + " field '" + field + "': " + problem);
    }
  }
}
