package dev.varroa.testfixtures.jenkins;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A response being put together; headers keep their order and may repeat, as Set-Cookie and X-Permission-Implied-By do. */
final class HttpReply {

    static final String HTML = "text/html;charset=utf-8";
    static final String JSON = "application/json;charset=utf-8";

    private final int status;
    private final List<Map.Entry<String, String>> headers = new ArrayList<>();
    private byte[] body = new byte[0];

    private HttpReply(int status) {
        this.status = status;
    }

    static HttpReply empty(int status) {
        return new HttpReply(status);
    }

    static HttpReply of(int status, String contentType, String body) {
        return new HttpReply(status).header("Content-Type", contentType).body(body);
    }

    /** HttpServletResponse#sendError as Jenkins' Jetty renders it: its own error page, none of Jenkins' headers. */
    static HttpReply sendError(int status, String message, String path) {
        String page = "<html><head><title>Error " + status + " " + escape(message) + "</title></head><body>"
                + "<h2>HTTP ERROR " + status + " " + escape(message) + "</h2><table>"
                + "<tr><th>URI:</th><td>" + escape(path) + "</td></tr>"
                + "<tr><th>STATUS:</th><td>" + status + "</td></tr>"
                + "<tr><th>MESSAGE:</th><td>" + escape(message) + "</td></tr>"
                + "</table></body></html>";
        return of(status, HTML, page);
    }

    HttpReply header(String name, String value) {
        headers.add(Map.entry(name, value));
        return this;
    }

    HttpReply body(String text) {
        body = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    int status() {
        return status;
    }

    void writeTo(HttpExchange exchange) throws IOException {
        headers.forEach(header -> exchange.getResponseHeaders().add(header.getKey(), header.getValue()));
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&#39;");
    }
}
