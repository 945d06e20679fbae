package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Jenkins' cron syntax and its H. The hashed values expected here are those Jenkins' own CronTab gives for the same
 * seeds ("stuff", "junk", "seed": its CronTabTest pins them), so a drift from Jenkins' algorithm fails here.
 */
class TimerSpecTest {
  private static final ZoneId UTC = ZoneOffset.UTC;

  private static Instant utc(int year, int month, int day, int hour, int minute) {
    return LocalDateTime.of(year, month, day, hour, minute).toInstant(ZoneOffset.UTC);
  }

  private static Optional<Instant> next(String job, String spec, Instant after) {
    return TimerSpec.parse(job, spec.lines().toList(), UTC).nextFireAfter(after);
  }

  /** A hash that answers the same function of the bound every time, to see which values a field draws. */
  private static JobHash fixed(java.util.function.IntUnaryOperator answer) {
    return new JobHash() {
      @Override
      int next(int bound) {
        return answer.applyAsInt(bound);
      }
    };
  }

  private static List<Integer> values(long bits) {
    List<Integer> values = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      if ((bits & (1L << i)) != 0) {
        values.add(i);
      }
    }
    return values;
  }

  @Test
  void hashesAMinuteByTheJobNameAsJenkinsDoes() {
    Instant after = utc(2013, 3, 21, 16, 21);

    assertThat(next("stuff", "H 17 * * *", after)).contains(utc(2013, 3, 21, 17, 56));
    assertThat(next("stuff", "H * * * *", after)).contains(utc(2013, 3, 21, 16, 56));
    assertThat(next("stuff", "@hourly", after)).contains(utc(2013, 3, 21, 16, 56));
    assertThat(next("junk", "@hourly", after)).contains(utc(2013, 3, 21, 17, 20));
    assertThat(next("stuff", "H H(12-13) * * *", after)).contains(utc(2013, 3, 22, 13, 56));
  }

  @Test
  void hashesTheFirstValueOfAStepAndKeepsTheStride() {
    assertThat(next("stuff", "H/15 * * * *", utc(2013, 3, 21, 16, 21))).contains(utc(2013, 3, 21, 16, 26));
    assertThat(next("stuff", "H/15 * * * *", utc(2013, 3, 21, 16, 31))).contains(utc(2013, 3, 21, 16, 41));
    assertThat(next("stuff", "H/15 * * * *", utc(2013, 3, 21, 16, 42))).contains(utc(2013, 3, 21, 16, 56));
    assertThat(next("stuff", "H/15 * * * *", utc(2013, 3, 21, 16, 59))).contains(utc(2013, 3, 21, 17, 11));
    assertThat(next("junk", "H(0-15)/3 * * * *", utc(2013, 3, 21, 0, 0))).contains(utc(2013, 3, 21, 0, 2));
    assertThat(next("junk", "H(0-3)/4 * * * *", utc(2013, 3, 21, 0, 0))).contains(utc(2013, 3, 21, 0, 2));
    assertThat(next("junk", "H(0-3)/4 * * * *", utc(2013, 3, 21, 0, 5))).contains(utc(2013, 3, 21, 1, 2));
  }

  @Test
  void drawsEveryHOfAJobFromOneSequenceAcrossItsLines() {
    TimerSpec twice = TimerSpec.parse("seed", List.of("H * * * *", "H * * * *"), UTC);

    assertThat(twice.lines()).extracting(line -> values(line.minutes())).containsExactly(List.of(35), List.of(56));
    assertThat(twice.nextFireAfter(utc(2013, 4, 3, 11, 0))).contains(utc(2013, 4, 3, 11, 35));
    assertThat(twice.nextFireAfter(utc(2013, 4, 3, 11, 35))).contains(utc(2013, 4, 3, 11, 56));
  }

  @Test
  void readsLinesInTheZoneOfATzFirstLine() {
    TimerSpec sydney = TimerSpec.parse("seed", List.of("TZ=Australia/Sydney", "H * * * *", "H * * * *"), UTC);
    TimerSpec nightly = TimerSpec.parse("nightly", List.of("TZ=Europe/Paris", "30 2 * * *"), UTC);

    assertThat(sydney.lines()).extracting(line -> values(line.minutes())).containsExactly(List.of(35), List.of(56));
    assertThat(sydney.lines()).allSatisfy(line -> assertThat(line.zone()).isEqualTo(ZoneId.of("Australia/Sydney")));
    // 02:30 in Paris is 01:30 UTC in winter
    assertThat(nightly.nextFireAfter(utc(2026, 1, 10, 12, 0))).contains(utc(2026, 1, 11, 1, 30));
  }

  @Test
  void picksHashedValuesWithinEachFieldsOwnRange() {
    TimerSpec last = TimerSpec.parse("any", List.of("H H(5-8) H/3 H(1-10)/4 *"), UTC, fixed(bound -> bound - 1));
    TimerSpec second = TimerSpec.parse("any", List.of("H H(5-8) H/3 H(1-10)/4 *"), UTC, fixed(bound -> 1));

    TimerSpec.CronLine high = last.lines().get(0);
    assertThat(values(high.minutes())).containsExactly(59);
    assertThat(values(high.hours())).containsExactly(8);
    assertThat(values(high.days())).containsExactly(3, 6, 9, 12, 15, 18, 21, 24, 27);
    assertThat(values(high.months())).containsExactly(4, 8);
    TimerSpec.CronLine low = second.lines().get(0);
    assertThat(values(low.minutes())).containsExactly(1);
    assertThat(values(low.hours())).containsExactly(6);
    assertThat(values(low.days())).containsExactly(2, 5, 8, 11, 14, 17, 20, 23, 26);
    assertThat(values(low.months())).containsExactly(2, 6, 10);
  }

  @Test
  void hashesDayOfMonthWithinTwentyEightAndDayOfWeekWithinSix() {
    TimerSpec.CronLine line = TimerSpec.parse("any", List.of("0 0 H * H"), UTC, fixed(bound -> bound - 1)).lines().get(0);

    assertThat(values(line.days())).containsExactly(28);
    assertThat(values(line.daysOfWeek())).containsExactly(6);
  }

  @Test
  void expandsEveryAliasAsJenkinsDoes() {
    TimerSpec.CronLine midnight = TimerSpec.parse("any", List.of("@midnight"), UTC, fixed(bound -> bound - 1))
        .lines().get(0);
    TimerSpec.CronLine weekly = TimerSpec.parse("any", List.of("@weekly"), UTC, fixed(bound -> bound - 1)).lines().get(0);
    TimerSpec.CronLine yearly = TimerSpec.parse("any", List.of("@yearly"), UTC, fixed(bound -> 0)).lines().get(0);

    assertThat(values(midnight.hours())).containsExactly(2);
    assertThat(values(midnight.daysOfWeek())).containsExactly(0, 1, 2, 3, 4, 5, 6);
    assertThat(values(weekly.daysOfWeek())).containsExactly(6);
    assertThat(values(weekly.days())).hasSize(31);
    assertThat(values(yearly.months())).containsExactly(1);
    assertThat(values(yearly.days())).containsExactly(1);
    for (String alias : List.of("@annually", "@monthly", "@daily", "@hourly")) {
      assertThat(TimerSpec.parse("any", List.of(alias), UTC).lines()).hasSize(1);
    }
  }

  @Test
  void readsRangesStepsAndLists() {
    TimerSpec.CronLine line = TimerSpec.parse("any", List.of("*/20 1-5/2,22 1,15 */6 1-5"), UTC).lines().get(0);

    assertThat(values(line.minutes())).containsExactly(0, 20, 40);
    assertThat(values(line.hours())).containsExactly(1, 3, 5, 22);
    assertThat(values(line.days())).containsExactly(1, 15);
    assertThat(values(line.months())).containsExactly(1, 7);
    assertThat(values(line.daysOfWeek())).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void firesOnlyWhenDayOfMonthAndDayOfWeekBothMatch() {
    // Jenkins ANDs the two day fields: Friday the 13th, not every Friday and every 13th
    assertThat(next("any", "0 0 13 * 5", utc(2026, 1, 1, 0, 0))).contains(utc(2026, 2, 13, 0, 0));
  }

  @Test
  void takesSevenForSunday() {
    // 2026-03-01 is a Sunday
    assertThat(next("any", "0 12 * * 7", utc(2026, 2, 26, 0, 0))).contains(utc(2026, 3, 1, 12, 0));
    assertThat(next("any", "0 12 * * 0", utc(2026, 2, 26, 0, 0))).contains(utc(2026, 3, 1, 12, 0));
  }

  @Test
  void skipsCommentsAndBlankLinesAndTakesTheEarliestLine() {
    TimerSpec spec = TimerSpec.parse("any", List.of("# nightly", "", "0 3 * * *", "  0 1 * * *  "), UTC);

    assertThat(spec.lines()).hasSize(2);
    assertThat(spec.nextFireAfter(utc(2026, 5, 1, 2, 0))).contains(utc(2026, 5, 1, 3, 0));
    assertThat(spec.nextFireAfter(utc(2026, 5, 1, 3, 0))).contains(utc(2026, 5, 2, 1, 0));
  }

  @Test
  void firesStrictlyAfterTheGivenInstant() {
    assertThat(next("any", "30 * * * *", utc(2026, 5, 1, 10, 30))).contains(utc(2026, 5, 1, 11, 30));
    assertThat(next("any", "30 * * * *", utc(2026, 5, 1, 10, 29).plusSeconds(59))).contains(utc(2026, 5, 1, 10, 30));
  }

  @Test
  void neverFiresOnADayNoMonthHas() {
    assertThat(next("any", "0 0 31 2 *", utc(2026, 1, 1, 0, 0))).isEmpty();
    assertThat(TimerSpec.parse("any", List.of(), UTC).nextFireAfter(utc(2026, 1, 1, 0, 0))).isEmpty();
  }

  @Test
  void movesATimeInADaylightSavingGapForward() {
    // Europe/Paris skips 02:00-03:00 on 2026-03-29
    TimerSpec spec = TimerSpec.parse("any", List.of("TZ=Europe/Paris", "30 2 * * *"), UTC);

    assertThat(spec.nextFireAfter(utc(2026, 3, 28, 12, 0))).contains(utc(2026, 3, 29, 1, 30));
  }

  @Test
  void refusesWhatJenkinsRefusesNamingTheJobLineAndField() {
    assertThatThrownBy(() -> TimerSpec.parse("team/app", List.of("H(0-3)/15 * * * *"), UTC))
        .isInstanceOf(CronSyntaxException.class)
        .hasMessageContaining("job team/app").hasMessageContaining("'H(0-3)/15 * * * *'")
        .hasMessageContaining("minute field").hasMessageContaining("outside 1-4");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("H H(12-24) * * *"), UTC))
        .hasMessageContaining("hour field").hasMessageContaining("24 is outside 0-23");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("H * * *"), UTC)).hasMessageContaining("has 4 fields");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("5/15 * * * *"), UTC)).hasMessageContaining("needs a range");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("5-1 * * * *"), UTC)).hasMessageContaining("backwards");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("*/0 * * * *"), UTC)).hasMessageContaining("positive");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("@fortnightly"), UTC)).hasMessageContaining("@fortnightly");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("TZ=Mars/Olympus", "H * * * *"), UTC))
        .hasMessageContaining("Mars/Olympus");
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("H * * * *", "TZ=UTC"), UTC))
        .isInstanceOf(CronSyntaxException.class);
    assertThatThrownBy(() -> TimerSpec.parse("a", List.of("H * * * * # nightly"), UTC))
        .isInstanceOf(CronSyntaxException.class);
  }
}
