package io.jsalt.minion.auth;

import io.jsalt.crypto.Crypticle;
import java.security.PublicKey;

/** What a successful sign-in yields: the session key, the master's verified key, where to subscribe. */
public record Session(Crypticle crypticle, PublicKey masterKey, int publishPort) {}
