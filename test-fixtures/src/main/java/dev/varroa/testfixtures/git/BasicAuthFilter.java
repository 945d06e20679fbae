package dev.varroa.testfixtures.git;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Optional;

/** Challenges requests to repositories that require basic auth; the rest pass through untouched. */
final class BasicAuthFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    private static final String REALM = "varroa-test-git";
    private static final String GIT_SUFFIX = ".git";

    private final transient RepositoryCredentials credentials;

    BasicAuthFilter(RepositoryCredentials credentials) {
        this.credentials = credentials;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Optional<BasicCredentials> required = credentials.requiredFor(repositoryName(request));
        if (required.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        Optional<BasicCredentials> presented = BasicCredentials.fromAuthorizationHeader(request.getHeader("Authorization"));
        if (presented.isEmpty() || !required.get().matches(presented.get())) {
            response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\"");
            response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
            return;
        }
        chain.doFilter(authenticatedAs(request, presented.get().username()), response);
    }

    // The path below the servlet is "/<name>.git/<git endpoint>"; credentials are keyed by <name>.
    private static String repositoryName(HttpServletRequest request) {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        String first = path.startsWith("/") ? path.substring(1) : path;
        int slash = first.indexOf('/');
        String segment = slash < 0 ? first : first.substring(0, slash);
        return segment.endsWith(GIT_SUFFIX) ? segment.substring(0, segment.length() - GIT_SUFFIX.length()) : segment;
    }

    // JGit's receive-pack records the remote user in the reflog.
    private static HttpServletRequest authenticatedAs(HttpServletRequest request, String username) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public String getRemoteUser() {
                return username;
            }

            @Override
            public String getAuthType() {
                return HttpServletRequest.BASIC_AUTH;
            }
        };
    }
}
