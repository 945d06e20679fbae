package dev.varroa.operator.hibernation;

import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time zone Jenkins reads timer specs without a TZ= line in: its JVM's default, which a Controller sets with
 * -Duser.timezone in jenkins.javaOpts or the TZ variable in jenkins.env; UTC otherwise, as in the Jenkins image.
 */
final class JenkinsZone {
  private static final Pattern USER_TIMEZONE = Pattern.compile("-Duser\\.timezone=(\\S+)");

  private JenkinsZone() {}

  static ZoneId of(ResolvedController controller) {
    Optional<String> fromOpts = controller.jenkins().javaOpts().map(USER_TIMEZONE::matcher).filter(Matcher::find)
        .map(m -> m.group(1));
    Optional<String> fromEnv = controller.jenkins().env().stream().filter(e -> "TZ".equals(e.getName()))
        .map(EnvVar::getValue).filter(v -> v != null && !v.isBlank()).findFirst();
    return fromOpts.or(() -> fromEnv).flatMap(JenkinsZone::zone).orElse(ZoneOffset.UTC);
  }

  private static Optional<ZoneId> zone(String id) {
    try {
      return Optional.of(ZoneId.of(id.strip().startsWith(":") ? id.strip().substring(1) : id.strip()));
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }
}
