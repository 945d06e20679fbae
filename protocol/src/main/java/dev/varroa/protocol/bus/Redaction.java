package dev.varroa.protocol.bus;

import java.util.regex.Pattern;

/** Removes the user:password part of server URLs from text that may reach a log line or a route. */
public final class Redaction {

  private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/@\\s\\]\\[,]*@");

  private Redaction() {
  }

  /** Also turns double quotes into single ones, so the text sits inside a quoted log value. */
  public static String withoutUserInfo(String text) {
    return text == null ? null : USER_INFO.matcher(text).replaceAll("$1***@").replace('"', '\'');
  }

  public static String describe(Throwable e) {
    return e.getClass().getSimpleName() + ": " + withoutUserInfo(e.getMessage());
  }
}
