package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class JenkinsErrorTextTest {

  private static JenkinsAnswer html(int status, String body) {
    return new JenkinsAnswer(status, "text/html;charset=utf-8", body, Optional.empty());
  }

  @Test
  void takesTheMessageOfTheJcascErrorPage() {
    JenkinsAnswer answer = html(200, "<!DOCTYPE html><html><head><title>Error loading configuration [Jenkins]</title>"
        + "<script>var x = '<p>not this</p>';</script></head><body id=\"jenkins\"><div id=\"side-panel\">menu</div>"
        + "<div id=\"main-panel\"><h1>Error loading configuration</h1>"
        + "<p>No configurator for the following root elements: jenkins.systemMesage &amp; more</p></div></body></html>");

    assertThat(JenkinsErrorText.isCascErrorPage(answer)).isTrue();
    assertThat(JenkinsErrorText.of(answer)).isEqualTo(
        "Error loading configuration: No configurator for the following root elements: jenkins.systemMesage & more");
  }

  @Test
  void readsTheRealErrorJellyLayout() {
    JenkinsAnswer answer = html(200, "<html><body><div id=\"main-panel\"><div class=\"app-bar\"><h1>Error loading "
        + "configuration</h1></div><p>Invalid configuration elements for configurator with name: <pre><code>jenkins"
        + "</code></pre></p><p>Attribute was: <pre><code>systemMesage</code></pre></p><p>Valid attributes are:</p>"
        + "<ul><li>systemMessage</li><li>numExecutors</li></ul></div></body></html>");

    assertThat(JenkinsErrorText.of(answer)).isEqualTo("Error loading configuration: Invalid configuration elements for "
        + "configurator with name: jenkins Attribute was: systemMesage Valid attributes are: systemMessage numExecutors");
  }

  @Test
  void takesTheHeadingOfJettysErrorPage() {
    JenkinsAnswer answer = html(401, "<html><head><title>Error 401 Unauthorized</title></head><body>"
        + "<h2>HTTP ERROR 401 Unauthorized</h2><table><tr><th>URI:</th><td>/configuration-as-code/reload</td></tr>"
        + "</table></body></html>");

    assertThat(JenkinsErrorText.of(answer)).isEqualTo("HTTP ERROR 401 Unauthorized");
  }

  @Test
  void readsTheBootFailurePage() {
    JenkinsAnswer answer = html(503, "<!DOCTYPE html><html><head><title>Jenkins failed to start</title></head>"
        + "<body><h1>Jenkins failed to start</h1><pre>plugin x needs &lt;y&gt; 1.2</pre></body></html>");

    assertThat(JenkinsErrorText.of(answer)).isEqualTo("Jenkins failed to start: plugin x needs <y> 1.2");
  }

  @Test
  void takesTheMessageOfAJsonError() {
    JenkinsAnswer answer = new JenkinsAnswer(500, "application/json;charset=UTF-8",
        "{\"status\":\"error\",\"message\":\"Failed to reload configuration: bad\"}", Optional.empty());

    assertThat(JenkinsErrorText.of(answer)).isEqualTo("Failed to reload configuration: bad");
  }

  @Test
  void joinsTheIssuesOfACheckAnswer() {
    JenkinsAnswer answer = new JenkinsAnswer(400, "application/json",
        "[{\"line\":3,\"warning\":\"unknown key\"},{\"line\":-1,\"message\":\"broken\"}]", Optional.empty());

    assertThat(JenkinsErrorText.of(answer)).isEqualTo("line 3: unknown key; broken");
  }

  @Test
  void boundsAVeryLongPage() {
    JenkinsAnswer answer = html(500, "<body><pre>" + "x ".repeat(10_000) + "</pre></body>");

    assertThat(JenkinsErrorText.of(answer)).hasSize(JenkinsErrorText.MAX_CHARS).endsWith("...");
  }

  @Test
  void saysSoWhenThereIsNoBody() {
    assertThat(JenkinsErrorText.of(html(502, ""))).isEqualTo("Jenkins answered HTTP 502 without a body");
  }
}
