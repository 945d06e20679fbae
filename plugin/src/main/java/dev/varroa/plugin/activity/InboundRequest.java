package dev.varroa.plugin.activity;

/**
 * What the activity filter needs of one HTTP request to Jenkins.
 *
 * @param remoteAddress the client's IP address as the servlet container reports it
 * @param authorization the {@code Authorization} header, or null; only its scheme is looked at
 * @param userAgent     the {@code User-Agent} header, or null
 * @param path          the path within Jenkins' context (without the context path and the query), e.g. {@code /job/app/}
 */
public record InboundRequest(String remoteAddress, String authorization, String userAgent, String path) {

  @Override
  public String toString() {
    // the Authorization header never shows
    return "InboundRequest[remoteAddress=" + remoteAddress + ", userAgent=" + userAgent + ", path=" + path + "]";
  }
}
