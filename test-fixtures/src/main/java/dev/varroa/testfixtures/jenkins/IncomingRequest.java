package dev.varroa.testfixtures.jenkins;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** One HTTP request as the fixture needs it: parameters merged the servlet way, query string first. */
record IncomingRequest(String method, String path, String query, Map<String, String> parameters, byte[] body,
                       Headers headers, String remoteAddress) {

    private static final String FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

    static IncomingRequest read(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        addParameters(exchange.getRequestURI().getRawQuery(), parameters);
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null && contentType.startsWith(FORM_CONTENT_TYPE)) {
            addParameters(new String(body, StandardCharsets.UTF_8), parameters);
        }
        return new IncomingRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                exchange.getRequestURI().getRawQuery(), parameters, body,
                exchange.getRequestHeaders(), exchange.getRemoteAddress().getAddress().getHostAddress());
    }

    String parameter(String name) {
        return parameters.get(name);
    }

    String header(String name) {
        return headers.getFirst(name);
    }

    boolean isPost() {
        return "POST".equals(method);
    }

    // ServletRequest#getParameter returns the first value, and the query string comes before the form body.
    private static void addParameters(String encoded, Map<String, String> into) {
        if (encoded == null || encoded.isEmpty()) {
            return;
        }
        for (String pair : encoded.split("&")) {
            String[] nameValue = pair.split("=", 2);
            String name = URLDecoder.decode(nameValue[0], StandardCharsets.UTF_8);
            into.putIfAbsent(name, nameValue.length == 2 ? URLDecoder.decode(nameValue[1], StandardCharsets.UTF_8) : "");
        }
    }
}
