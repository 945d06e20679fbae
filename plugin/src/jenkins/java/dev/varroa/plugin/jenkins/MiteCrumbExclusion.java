package dev.varroa.plugin.jenkins;

import hudson.Extension;
import hudson.security.csrf.CrumbExclusion;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A POST with a verified mite bearer token needs no crumb (the core's BearerCrumbExclusion decides).
 * Jenkins API: hudson.security.csrf.CrumbExclusion#process(HttpServletRequest, HttpServletResponse, FilterChain).
 */
@Extension
public final class MiteCrumbExclusion extends CrumbExclusion {

  @Override
  public boolean process(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!VarroaRuntime.crumbExclusion().exempts(request.getHeader("Authorization"))) {
      return false;
    }
    chain.doFilter(request, response);
    return true;
  }
}
