// oidc-provider ships no types (its @types package lags a major behind): the test reads it untyped.
declare module 'oidc-provider'
