package dev.varroa.operator.hooks;

/** What an authentic delivery says was pushed; only a hint, as every re-check reads the source itself. */
public sealed interface PushNotice permits GitPush, RegistryPush {
  /** One line for logs and events: repositories and refs, never credentials. */
  String describe();
}
