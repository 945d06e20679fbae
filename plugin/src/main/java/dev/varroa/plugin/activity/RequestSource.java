package dev.varroa.plugin.activity;

/** Who a request to Jenkins came from, as far as the inactivity policy cares. */
public enum RequestSource {
  /** A person or a tool using Jenkins' UI or API, webhooks included: this is use. */
  USER,
  /** The mite: from loopback with a bearer token (the operator's JWT). */
  MITE,
  /** The kubelet's startup, liveness or readiness probe ({@code User-Agent: kube-probe/<version>}). */
  KUBELET_PROBE,
  /** An inbound agent connecting (WebSocket, TCP listener discovery, its JNLP file or agent.jar download). */
  AGENT_CONNECTION;

  /** True when the request keeps the controller awake. */
  public boolean isUse() {
    return this == USER;
  }
}
