package dev.varroa.operator.hibernation;

import java.nio.charset.StandardCharsets;

/** The small page a browser gets at a parked controller's URL: it says Jenkins is starting, and reloads itself. */
final class WakePage {
  /** How often the page reloads (and the Retry-After a client is told): a Jenkins boot takes tens of seconds. */
  static final int REFRESH_SECONDS = 5;

  private WakePage() {}

  static byte[] render(String namespace, String name) {
    String who = escape(name);
    String html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="refresh" content="%d">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Jenkins %s is starting</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;background:#f6f7f9;color:#1f2328}
        main{max-width:34rem;padding:2rem;text-align:center}
        h1{font-size:1.4rem;font-weight:600}
        p{line-height:1.5;color:#59636e}
        </style>
        </head>
        <body>
        <main>
        <h1>Jenkins %s is starting</h1>
        <p>It was parked after a while without use, to save resources, and your visit woke it up.
        This page reloads every %d seconds and shows Jenkins as soon as it is ready, usually within a few minutes.</p>
        <p><small>Controller %s in namespace %s &middot; Varroa</small></p>
        </main>
        </body>
        </html>
        """.formatted(REFRESH_SECONDS, who, who, REFRESH_SECONDS, who, escape(namespace));
    return html.getBytes(StandardCharsets.UTF_8);
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
