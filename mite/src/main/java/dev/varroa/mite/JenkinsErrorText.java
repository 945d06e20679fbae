package dev.varroa.mite;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jenkins' own error text from an answer, as one line: the "message" of a JSON error, or the visible
 * text of an HTML page (its main panel when it has one), heading first.
 */
final class JenkinsErrorText {

  /** Enough for a JCasC message with its path; a whole stack trace is not useful in a command result. */
  static final int MAX_CHARS = 2000;
  /** Shown on a 200 page when ConfigurationAsCode#doReload caught a ConfiguratorException (error.jelly). */
  static final String CASC_ERROR_TITLE = "Error loading configuration";

  private static final Pattern INVISIBLE = Pattern.compile(
      "(?is)<!--.*?-->|<head\\b.*?</head>|<script\\b.*?</script>|<style\\b.*?</style>");
  private static final Pattern MAIN_PANEL = Pattern.compile("(?is)<div[^>]*\\bid=[\"']main-panel[\"'][^>]*>(.*)");
  private static final Pattern BODY = Pattern.compile("(?is)<body\\b[^>]*>(.*?)(</body>|$)");
  private static final Pattern BLOCK_BOUNDARY = Pattern.compile(
      "(?i)</?(h[1-6]|p|pre|div|li|ul|ol|tr|table|br|code|section|header|footer|form)\\b[^>]*>");
  private static final Pattern HEADING = Pattern.compile("(?is)<h[1-6]\\b[^>]*>(.*?)</h[1-6]>");
  private static final Pattern TAG = Pattern.compile("(?s)<[^>]*>");
  private static final Pattern NUMERIC_ENTITY = Pattern.compile("&#(x?)([0-9a-fA-F]+);");
  private static final String SEPARATOR = "\u0000";

  private JenkinsErrorText() {
  }

  static String of(JenkinsAnswer answer) {
    String body = answer.body();
    if (body.isBlank()) {
      return "Jenkins answered HTTP " + answer.status() + " without a body";
    }
    String text = answer.json() || looksLikeJson(body) ? fromJson(body) : fromHtml(body);
    if (text.isBlank()) {
      text = "Jenkins answered HTTP " + answer.status();
    }
    return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS - 3) + "...";
  }

  /** True for the page Jenkins answers (with 200) when a JCasC reload failed. */
  static boolean isCascErrorPage(JenkinsAnswer answer) {
    return answer.body().contains(CASC_ERROR_TITLE);
  }

  private static boolean looksLikeJson(String body) {
    String t = body.stripLeading();
    return t.startsWith("{") || t.startsWith("[");
  }

  private static String fromJson(String body) {
    try {
      List<String> messages = new ArrayList<>();
      collectMessages(JenkinsJson.parse(body), messages);
      return messages.isEmpty() ? oneLine(body) : String.join("; ", messages);
    } catch (IOException e) {
      return oneLine(body);
    }
  }

  // {"message": ...} (TokenReloadAction), [{"line":..,"message"|"error"|"warning":..}] (doCheck)
  private static void collectMessages(Object node, List<String> messages) {
    if (node instanceof List<?> list) {
      list.forEach(element -> collectMessages(element, messages));
      return;
    }
    for (String field : List.of("message", "error", "warning")) {
      String value = JenkinsJson.text(JenkinsJson.field(node, field));
      if (!value.isBlank()) {
        Object line = JenkinsJson.field(node, "line");
        int number = line instanceof Number n ? n.intValue() : -1;
        messages.add((number > 0 ? "line " + number + ": " : "") + oneLine(value));
        return;
      }
    }
  }

  private static String fromHtml(String html) {
    String visible = INVISIBLE.matcher(html).replaceAll(" ");
    Matcher main = MAIN_PANEL.matcher(visible);
    Matcher body = BODY.matcher(visible);
    String region = main.find() ? main.group(1) : body.find() ? body.group(1) : visible;
    Matcher heading = HEADING.matcher(region);
    String headingText = heading.find() ? text(heading.group(1)) : "";
    // Jetty's own error page repeats its heading in a table; the heading says it all
    if (headingText.toUpperCase(Locale.ROOT).startsWith("HTTP ERROR")) {
      return headingText;
    }
    List<String> blocks = new ArrayList<>();
    for (String block : BLOCK_BOUNDARY.matcher(region).replaceAll(SEPARATOR).split(SEPARATOR)) {
      String t = text(block);
      if (!t.isEmpty()) {
        blocks.add(t);
      }
    }
    if (blocks.size() > 1 && blocks.get(0).equals(headingText)) {
      return headingText + ": " + String.join(" ", blocks.subList(1, blocks.size()));
    }
    return String.join(" ", blocks);
  }

  private static String text(String fragment) {
    return oneLine(unescape(TAG.matcher(fragment).replaceAll(" ")));
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s+", " ").strip();
  }

  private static String unescape(String text) {
    Matcher numeric = NUMERIC_ENTITY.matcher(text);
    StringBuilder out = new StringBuilder();
    while (numeric.find()) {
      String character;
      try {
        character = new String(Character.toChars(Integer.parseInt(numeric.group(2), numeric.group(1).isEmpty() ? 10 : 16)));
      } catch (IllegalArgumentException notACharacter) {
        character = numeric.group();
      }
      numeric.appendReplacement(out, Matcher.quoteReplacement(character));
    }
    numeric.appendTail(out);
    return out.toString().replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&apos;", "'").replace("&nbsp;", " ").replace("&amp;", "&");
  }
}
