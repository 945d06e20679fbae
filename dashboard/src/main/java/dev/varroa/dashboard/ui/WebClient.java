package dev.varroa.dashboard.ui;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/** Mounts the browser client: {@code /ui/*} and the exact root {@code /} (the servlet mapping ""). */
public final class WebClient {

  private WebClient() {}

  public static void mount(ServletContextHandler context) {
    context.addServlet(new ServletHolder("ui", new WebClientServlet()), "/ui/*");
    context.addServlet(new ServletHolder("ui-root", new RootRedirectServlet()), "");
  }
}
