package dev.varroa.operator.hibernation;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The paths on Jenkins whose POSTs the waker keeps for replay (docs/hibernation.md#kept-deliveries): the webhook
 * endpoints SCM plugins expose, whose senders do not redeliver. Anything else a parked controller is sent wakes it but
 * is not kept: an API call or a form carries a person's credentials, and they can repeat it. Pure.
 */
final class ReplayableRoutes {
  /** Exact paths (one trailing slash more or less is the same path), with the plugin that serves each. */
  static final List<String> REPLAYABLE_PATHS = List.of(
      "/github-webhook/",                      // GitHub plugin, GitHub Branch Source
      "/bitbucket-hook/",                      // Bitbucket plugin
      "/bitbucket-scmsource-hook/notify",      // Bitbucket Branch Source
      "/gitlab-webhook/post",                  // GitLab Branch Source
      "/gitea-webhook/post",                   // Gitea plugin
      "/generic-webhook-trigger/invoke",       // Generic Webhook Trigger
      "/multibranch-webhook-trigger/invoke",   // Multibranch Scan Webhook Trigger
      "/git/notifyCommit");                    // Git plugin
  /** Prefixes followed by a job's path: the GitLab plugin's per-project hook, /project/<folder>/<job>. */
  static final List<String> REPLAYABLE_PATH_PREFIXES = List.of("/project/");
  /** A plain path segment: no dot segments, no encoded slash, backslash or dot that Jenkins would decode into one. */
  private static final Pattern SEGMENT = Pattern.compile("(?:[A-Za-z0-9_.~!$&'()*+,=:@-]|%(?![2][eEfF]|5[cC])"
      + "[0-9A-Fa-f]{2})+");

  private ReplayableRoutes() {}

  /** Whether a POST at this raw path (without the query) is kept for replay. */
  static boolean replayable(String rawPath) {
    if (rawPath == null || rawPath.isEmpty()) {
      return false;
    }
    for (String path : REPLAYABLE_PATHS) {
      if (rawPath.equals(path) || rawPath.equals(withSlashToggled(path))) {
        return true;
      }
    }
    for (String prefix : REPLAYABLE_PATH_PREFIXES) {
      if (rawPath.startsWith(prefix) && plainSegments(rawPath.substring(prefix.length()))) {
        return true;
      }
    }
    return false;
  }

  private static String withSlashToggled(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path + "/";
  }

  /** One or more segments, each plain and neither "." nor ".."; one trailing slash allowed. */
  private static boolean plainSegments(String rest) {
    String trimmed = rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
    if (trimmed.isEmpty()) {
      return false;
    }
    for (String segment : trimmed.split("/", -1)) {
      String lower = segment.toLowerCase(Locale.ROOT);
      if (segment.isEmpty() || lower.equals(".") || lower.equals("..") || !SEGMENT.matcher(segment).matches()) {
        return false;
      }
    }
    return true;
  }
}
