// Generated from spec/ by `npm run generate`. Do not edit by hand.
import type { OperationId } from './handlers.js';
import type { components } from './types.js';

export const apiVersion = "1.1.0";

export type Scope = components['schemas']['Scope'];
/** Every scope a token can hold, in the spec's order. */
export const scopes = ["session:start","session:read","session:stop","logs:read","artifact:read","regions:read","events:write","token:write","webhook:repohost"] as const satisfies readonly Scope[];

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

export interface RouteDefinition {
  operationId: OperationId;
  method: HttpMethod;
  /** The path as written in the spec. */
  path: string;
  /** The same path in Fastify's `:param` form. */
  url: string;
  tag: string;
  summary: string;
  /** Scopes the caller's token must hold (x-required-scopes); empty means any valid token. */
  requiredScopes: readonly Scope[];
  /** How the caller authenticates (the operation's security scheme): bearer token, admin session cookie, or none. */
  security: 'bearer' | 'adminSession' | 'none';
  requestContentType: string | null;
  /** JSON Schemas of the request parts, with $refs inlined. */
  schema: { body?: object; querystring?: object; params?: object; headers?: object };
  /** Documented responses by status code, with the JSON Schema of each body. */
  responses: Readonly<Record<string, { contentType: string | null; schema: object | null }>>;
}

export const routes: readonly RouteDefinition[] = [
  {
    "operationId": "listSessions",
    "method": "GET",
    "path": "/session",
    "url": "/session",
    "tag": "Sessions",
    "summary": "List sessions",
    "requiredScopes": [
      "session:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "querystring": {
        "type": "object",
        "properties": {
          "all": {
            "type": "boolean",
            "default": false
          },
          "location": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "image": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "tag": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "host": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "status": {
            "type": "string",
            "enum": [
              "created",
              "running",
              "restarting",
              "draining",
              "shuttingdown",
              "server_unreachable",
              "exited",
              "dead"
            ]
          },
          "playerCount[lt]": {
            "type": "integer",
            "minimum": 0
          },
          "playerCount[gt]": {
            "type": "integer",
            "minimum": 0
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000
          },
          "cursor": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512
          }
        },
        "patternProperties": {
          "^filter\\[[^\\]]+\\]$": {
            "type": "string",
            "maxLength": 1024
          },
          "^filterNot\\[[^\\]]+\\]$": {
            "type": "string",
            "maxLength": 1024
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "sessions"
          ],
          "properties": {
            "sessions": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "image",
                  "tag",
                  "location",
                  "host",
                  "created",
                  "started",
                  "port",
                  "ports",
                  "status",
                  "labels",
                  "players",
                  "ended",
                  "exit_code",
                  "end_reason"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "image": {
                    "type": "string"
                  },
                  "tag": {
                    "type": "string"
                  },
                  "location": {
                    "type": "string"
                  },
                  "host": {
                    "type": "string"
                  },
                  "created": {
                    "type": "integer",
                    "format": "int64"
                  },
                  "started": {
                    "type": "integer",
                    "format": "int64",
                    "nullable": true
                  },
                  "port": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "integer"
                    }
                  },
                  "ports": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "type",
                        "container",
                        "host"
                      ],
                      "properties": {
                        "type": {
                          "type": "string",
                          "enum": [
                            "tcp",
                            "udp"
                          ]
                        },
                        "container": {
                          "type": "integer"
                        },
                        "host": {
                          "type": "integer"
                        },
                        "name": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "created",
                      "running",
                      "restarting",
                      "draining",
                      "shuttingdown",
                      "server_unreachable",
                      "exited",
                      "dead"
                    ]
                  },
                  "labels": {
                    "type": "object",
                    "maxProperties": 64,
                    "additionalProperties": {
                      "type": "string",
                      "maxLength": 1024
                    }
                  },
                  "players": {
                    "type": "object",
                    "required": [
                      "joined",
                      "joinedCount"
                    ],
                    "properties": {
                      "joined": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      },
                      "joinedCount": {
                        "type": "integer",
                        "minimum": 0
                      }
                    }
                  },
                  "restart": {
                    "type": "boolean"
                  },
                  "expires": {
                    "type": "integer",
                    "format": "int64",
                    "nullable": true
                  },
                  "ended": {
                    "type": "integer",
                    "format": "int64",
                    "nullable": true
                  },
                  "exit_code": {
                    "type": "integer",
                    "nullable": true
                  },
                  "end_reason": {
                    "type": "string",
                    "nullable": true,
                    "enum": [
                      "stopped",
                      "exited",
                      "crashed",
                      "ttl_expired",
                      "quota_exhausted",
                      "start_failed",
                      "node_lost",
                      null
                    ]
                  }
                }
              }
            },
            "next_cursor": {
              "type": "string",
              "nullable": true
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "startSession",
    "method": "POST",
    "path": "/session",
    "url": "/session",
    "tag": "Sessions",
    "summary": "Start a session",
    "requiredScopes": [
      "session:start"
    ],
    "security": "bearer",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "location",
          "image"
        ],
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]*$"
          },
          "location": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          },
          "image": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "version": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "env": {
            "allOf": [
              {
                "type": "object",
                "maxProperties": 64,
                "additionalProperties": {
                  "type": "string",
                  "maxLength": 1024
                }
              }
            ]
          },
          "args": {
            "type": "array",
            "maxItems": 64,
            "items": {
              "type": "string",
              "maxLength": 1024
            }
          },
          "labels": {
            "allOf": [
              {
                "type": "object",
                "maxProperties": 64,
                "additionalProperties": {
                  "type": "string",
                  "maxLength": 1024
                }
              }
            ]
          },
          "restart": {
            "type": "boolean",
            "default": false
          },
          "ttl": {
            "allOf": [
              {
                "type": "string",
                "title": "a duration such as 30m, 2h or 1h30m",
                "pattern": "^(?=\\d)(?:[1-9]\\d{0,5}h)?(?:[1-9]\\d{0,5}m)?$",
                "minLength": 2,
                "maxLength": 15
              }
            ]
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "201": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "image",
            "tag",
            "location",
            "host",
            "created",
            "started",
            "port",
            "ports",
            "status",
            "labels",
            "players",
            "ended",
            "exit_code",
            "end_reason"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "image": {
              "type": "string"
            },
            "tag": {
              "type": "string"
            },
            "location": {
              "type": "string"
            },
            "host": {
              "type": "string"
            },
            "created": {
              "type": "integer",
              "format": "int64"
            },
            "started": {
              "type": "integer",
              "format": "int64",
              "nullable": true
            },
            "port": {
              "type": "object",
              "additionalProperties": {
                "type": "integer"
              }
            },
            "ports": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "type",
                  "container",
                  "host"
                ],
                "properties": {
                  "type": {
                    "type": "string",
                    "enum": [
                      "tcp",
                      "udp"
                    ]
                  },
                  "container": {
                    "type": "integer"
                  },
                  "host": {
                    "type": "integer"
                  },
                  "name": {
                    "type": "string"
                  }
                }
              }
            },
            "status": {
              "type": "string",
              "enum": [
                "created",
                "running",
                "restarting",
                "draining",
                "shuttingdown",
                "server_unreachable",
                "exited",
                "dead"
              ]
            },
            "labels": {
              "type": "object",
              "maxProperties": 64,
              "additionalProperties": {
                "type": "string",
                "maxLength": 1024
              }
            },
            "players": {
              "type": "object",
              "required": [
                "joined",
                "joinedCount"
              ],
              "properties": {
                "joined": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                },
                "joinedCount": {
                  "type": "integer",
                  "minimum": 0
                }
              }
            },
            "restart": {
              "type": "boolean"
            },
            "expires": {
              "type": "integer",
              "format": "int64",
              "nullable": true
            },
            "ended": {
              "type": "integer",
              "format": "int64",
              "nullable": true
            },
            "exit_code": {
              "type": "integer",
              "nullable": true
            },
            "end_reason": {
              "type": "string",
              "nullable": true,
              "enum": [
                "stopped",
                "exited",
                "crashed",
                "ttl_expired",
                "quota_exhausted",
                "start_failed",
                "node_lost",
                null
              ]
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "403": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "420": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getSession",
    "method": "GET",
    "path": "/session/{id}",
    "url": "/session/:id",
    "tag": "Sessions",
    "summary": "Get a session",
    "requiredScopes": [
      "session:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "image",
            "tag",
            "location",
            "host",
            "created",
            "started",
            "port",
            "ports",
            "status",
            "labels",
            "players",
            "ended",
            "exit_code",
            "end_reason"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "image": {
              "type": "string"
            },
            "tag": {
              "type": "string"
            },
            "location": {
              "type": "string"
            },
            "host": {
              "type": "string"
            },
            "created": {
              "type": "integer",
              "format": "int64"
            },
            "started": {
              "type": "integer",
              "format": "int64",
              "nullable": true
            },
            "port": {
              "type": "object",
              "additionalProperties": {
                "type": "integer"
              }
            },
            "ports": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "type",
                  "container",
                  "host"
                ],
                "properties": {
                  "type": {
                    "type": "string",
                    "enum": [
                      "tcp",
                      "udp"
                    ]
                  },
                  "container": {
                    "type": "integer"
                  },
                  "host": {
                    "type": "integer"
                  },
                  "name": {
                    "type": "string"
                  }
                }
              }
            },
            "status": {
              "type": "string",
              "enum": [
                "created",
                "running",
                "restarting",
                "draining",
                "shuttingdown",
                "server_unreachable",
                "exited",
                "dead"
              ]
            },
            "labels": {
              "type": "object",
              "maxProperties": 64,
              "additionalProperties": {
                "type": "string",
                "maxLength": 1024
              }
            },
            "players": {
              "type": "object",
              "required": [
                "joined",
                "joinedCount"
              ],
              "properties": {
                "joined": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                },
                "joinedCount": {
                  "type": "integer",
                  "minimum": 0
                }
              }
            },
            "restart": {
              "type": "boolean"
            },
            "expires": {
              "type": "integer",
              "format": "int64",
              "nullable": true
            },
            "ended": {
              "type": "integer",
              "format": "int64",
              "nullable": true
            },
            "exit_code": {
              "type": "integer",
              "nullable": true
            },
            "end_reason": {
              "type": "string",
              "nullable": true,
              "enum": [
                "stopped",
                "exited",
                "crashed",
                "ttl_expired",
                "quota_exhausted",
                "start_failed",
                "node_lost",
                null
              ]
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "stopSession",
    "method": "DELETE",
    "path": "/session/{id}",
    "url": "/session/:id",
    "tag": "Sessions",
    "summary": "Stop a session",
    "requiredScopes": [
      "session:stop"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "204": {
        "contentType": null,
        "schema": null
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "joinPlayers",
    "method": "PUT",
    "path": "/session/player/join",
    "url": "/session/player/join",
    "tag": "Players",
    "summary": "Add players to a session",
    "requiredScopes": [
      "session:start"
    ],
    "security": "bearer",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "session",
          "players"
        ],
        "properties": {
          "session": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "players": {
            "type": "array",
            "minItems": 1,
            "maxItems": 256,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "count",
            "players"
          ],
          "properties": {
            "count": {
              "type": "integer",
              "minimum": 0
            },
            "players": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "leavePlayers",
    "method": "DELETE",
    "path": "/session/player/leave",
    "url": "/session/player/leave",
    "tag": "Players",
    "summary": "Remove players from a session",
    "requiredScopes": [
      "session:start"
    ],
    "security": "bearer",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "players"
        ],
        "properties": {
          "session": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "players": {
            "type": "array",
            "minItems": 1,
            "maxItems": 256,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "count",
            "players"
          ],
          "properties": {
            "count": {
              "type": "integer",
              "minimum": 0
            },
            "players": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listLocations",
    "method": "GET",
    "path": "/location",
    "url": "/location",
    "tag": "Locations",
    "summary": "List locations",
    "requiredScopes": [
      "regions:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "locations"
          ],
          "properties": {
            "locations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "status",
                  "ips",
                  "capacity",
                  "nodes"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "available",
                      "full",
                      "locked"
                    ]
                  },
                  "ips": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "capacity": {
                    "type": "object",
                    "required": [
                      "total",
                      "used",
                      "free"
                    ],
                    "properties": {
                      "total": {
                        "type": "integer"
                      },
                      "used": {
                        "type": "integer"
                      },
                      "free": {
                        "type": "integer"
                      }
                    }
                  },
                  "nodes": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "id",
                        "host",
                        "locked",
                        "capacity",
                        "used"
                      ],
                      "properties": {
                        "id": {
                          "type": "string"
                        },
                        "host": {
                          "type": "string"
                        },
                        "locked": {
                          "type": "boolean"
                        },
                        "capacity": {
                          "type": "integer"
                        },
                        "used": {
                          "type": "integer"
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listAvailableLocations",
    "method": "GET",
    "path": "/available-location/{image}",
    "url": "/available-location/:image",
    "tag": "Locations",
    "summary": "List locations where an image can start",
    "requiredScopes": [
      "regions:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "image": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          }
        },
        "required": [
          "image"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "locations"
          ],
          "properties": {
            "locations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "ips"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "ips": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getSessionLogs",
    "method": "GET",
    "path": "/logs",
    "url": "/logs",
    "tag": "Logs",
    "summary": "Read a session's logs",
    "requiredScopes": [
      "logs:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "querystring": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "follow": {
            "type": "boolean",
            "default": false
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "text/plain",
        "schema": {
          "type": "string"
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "downloadArtifacts",
    "method": "GET",
    "path": "/artifacts",
    "url": "/artifacts",
    "tag": "Artifacts",
    "summary": "Download a session's artifacts",
    "requiredScopes": [
      "artifact:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "querystring": {
        "type": "object",
        "properties": {
          "session": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "path": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1024
          }
        },
        "required": [
          "session"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/gzip",
        "schema": {
          "type": "string",
          "format": "binary"
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "streamEvents",
    "method": "GET",
    "path": "/events",
    "url": "/events",
    "tag": "Events",
    "summary": "Stream session events",
    "requiredScopes": [
      "session:read"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          },
          "last-event-id": {
            "type": "string",
            "pattern": "^[0-9]{1,18}$"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "text/event-stream",
        "schema": {
          "type": "string"
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listSubscriptions",
    "method": "GET",
    "path": "/subscription",
    "url": "/subscription",
    "tag": "Events",
    "summary": "List webhook subscriptions",
    "requiredScopes": [
      "events:write"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "subscriptions"
          ],
          "properties": {
            "subscriptions": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "url",
                  "created"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "url": {
                    "type": "string"
                  },
                  "created": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "createSubscription",
    "method": "POST",
    "path": "/subscription",
    "url": "/subscription",
    "tag": "Events",
    "summary": "Create a webhook subscription",
    "requiredScopes": [
      "events:write"
    ],
    "security": "bearer",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "url"
        ],
        "properties": {
          "url": {
            "type": "string",
            "format": "uri",
            "maxLength": 2048,
            "pattern": "^https?://"
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "201": {
        "contentType": "application/json",
        "schema": {
          "allOf": [
            {
              "type": "object",
              "required": [
                "id",
                "url",
                "created"
              ],
              "properties": {
                "id": {
                  "type": "string"
                },
                "url": {
                  "type": "string"
                },
                "created": {
                  "type": "string",
                  "format": "date-time"
                }
              }
            },
            {
              "type": "object",
              "required": [
                "secret"
              ],
              "properties": {
                "secret": {
                  "type": "string"
                }
              }
            }
          ]
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "deleteSubscription",
    "method": "DELETE",
    "path": "/subscription/{id}",
    "url": "/subscription/:id",
    "tag": "Events",
    "summary": "Delete a webhook subscription",
    "requiredScopes": [
      "events:write"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "204": {
        "contentType": null,
        "schema": null
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listDeliveries",
    "method": "GET",
    "path": "/subscription/{id}/delivery",
    "url": "/subscription/:id/delivery",
    "tag": "Events",
    "summary": "List a subscription's deliveries",
    "requiredScopes": [
      "events:write"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "deliveries"
          ],
          "properties": {
            "deliveries": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "event_id",
                  "attempt",
                  "at",
                  "ok",
                  "status_code",
                  "error"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "event_id": {
                    "type": "string"
                  },
                  "attempt": {
                    "type": "integer",
                    "minimum": 1
                  },
                  "at": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "ok": {
                    "type": "boolean"
                  },
                  "status_code": {
                    "type": "integer",
                    "nullable": true
                  },
                  "error": {
                    "type": "string",
                    "nullable": true
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listTokens",
    "method": "GET",
    "path": "/token",
    "url": "/token",
    "tag": "Tokens",
    "summary": "List tokens",
    "requiredScopes": [
      "token:write"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "tokens"
          ],
          "properties": {
            "tokens": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "name",
                  "scopes",
                  "token",
                  "status",
                  "expires_at",
                  "created",
                  "last_used"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "scopes": {
                    "type": "array",
                    "items": {
                      "type": "string",
                      "enum": [
                        "session:start",
                        "session:read",
                        "session:stop",
                        "logs:read",
                        "artifact:read",
                        "regions:read",
                        "events:write",
                        "token:write",
                        "webhook:repohost"
                      ]
                    }
                  },
                  "token": {
                    "type": "string"
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "active",
                      "disabled",
                      "expired"
                    ]
                  },
                  "expires_at": {
                    "type": "string",
                    "format": "date-time",
                    "nullable": true
                  },
                  "created": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "last_used": {
                    "type": "string",
                    "format": "date-time",
                    "nullable": true
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "createToken",
    "method": "POST",
    "path": "/token",
    "url": "/token",
    "tag": "Tokens",
    "summary": "Create a token",
    "requiredScopes": [
      "token:write"
    ],
    "security": "bearer",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name",
          "scopes"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100
          },
          "scopes": {
            "type": "array",
            "minItems": 1,
            "maxItems": 9,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "enum": [
                "session:start",
                "session:read",
                "session:stop",
                "logs:read",
                "artifact:read",
                "regions:read",
                "events:write",
                "token:write",
                "webhook:repohost"
              ]
            }
          },
          "expires_after": {
            "allOf": [
              {
                "type": "string",
                "title": "a duration such as 30m, 2h or 1h30m",
                "pattern": "^(?=\\d)(?:[1-9]\\d{0,5}h)?(?:[1-9]\\d{0,5}m)?$",
                "minLength": 2,
                "maxLength": 15
              }
            ]
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "201": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "scopes",
            "token",
            "expires_at",
            "created"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "scopes": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "session:start",
                  "session:read",
                  "session:stop",
                  "logs:read",
                  "artifact:read",
                  "regions:read",
                  "events:write",
                  "token:write",
                  "webhook:repohost"
                ]
              }
            },
            "token": {
              "type": "string"
            },
            "expires_at": {
              "type": "string",
              "format": "date-time",
              "nullable": true
            },
            "created": {
              "type": "string",
              "format": "date-time"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "revokeToken",
    "method": "DELETE",
    "path": "/token/{id}",
    "url": "/token/:id",
    "tag": "Tokens",
    "summary": "Revoke a token",
    "requiredScopes": [
      "token:write"
    ],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "204": {
        "contentType": null,
        "schema": null
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getAccount",
    "method": "GET",
    "path": "/account",
    "url": "/account",
    "tag": "Account",
    "summary": "Get the caller's account",
    "requiredScopes": [],
    "security": "bearer",
    "requestContentType": null,
    "schema": {
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "quota"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "quota": {
              "type": "object",
              "required": [
                "total",
                "used",
                "remaining"
              ],
              "properties": {
                "total": {
                  "type": "integer",
                  "minimum": 0
                },
                "used": {
                  "type": "number",
                  "minimum": 0
                },
                "remaining": {
                  "type": "number",
                  "minimum": 0
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "registerImageTag",
    "method": "POST",
    "path": "/webhook/repohost",
    "url": "/webhook/repohost",
    "tag": "Webhooks",
    "summary": "Register a pushed image tag",
    "requiredScopes": [
      "webhook:repohost"
    ],
    "security": "bearer",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "required": [
          "push_data",
          "repository"
        ],
        "additionalProperties": true,
        "properties": {
          "push_data": {
            "type": "object",
            "required": [
              "tag"
            ],
            "additionalProperties": true,
            "properties": {
              "tag": {
                "type": "string",
                "minLength": 1,
                "maxLength": 128,
                "pattern": "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
              }
            }
          },
          "repository": {
            "type": "object",
            "required": [
              "repo_name"
            ],
            "additionalProperties": true,
            "properties": {
              "repo_name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255
              }
            }
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-sandbox-status": {
            "type": "string"
          }
        },
        "required": []
      }
    },
    "responses": {
      "202": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "image",
            "tag"
          ],
          "properties": {
            "image": {
              "type": "string"
            },
            "tag": {
              "type": "string"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getLiveness",
    "method": "GET",
    "path": "/healthz",
    "url": "/healthz",
    "tag": "Health",
    "summary": "Check that the process is alive",
    "requiredScopes": [],
    "security": "none",
    "requestContentType": null,
    "schema": {},
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "status"
          ],
          "additionalProperties": false,
          "properties": {
            "status": {
              "type": "string",
              "enum": [
                "alive"
              ]
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getReadiness",
    "method": "GET",
    "path": "/readyz",
    "url": "/readyz",
    "tag": "Health",
    "summary": "Check that the service can take traffic",
    "requiredScopes": [],
    "security": "none",
    "requestContentType": null,
    "schema": {},
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "status",
            "problems"
          ],
          "additionalProperties": false,
          "properties": {
            "status": {
              "type": "string",
              "enum": [
                "ready",
                "degraded"
              ]
            },
            "problems": {
              "type": "array",
              "maxItems": 100,
              "items": {
                "type": "object",
                "required": [
                  "component",
                  "since",
                  "identifier"
                ],
                "additionalProperties": false,
                "properties": {
                  "component": {
                    "type": "string",
                    "maxLength": 64
                  },
                  "since": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "identifier": {
                    "type": "string",
                    "maxLength": 64
                  }
                }
              }
            }
          }
        }
      },
      "503": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "status",
            "problems"
          ],
          "additionalProperties": false,
          "properties": {
            "status": {
              "type": "string",
              "enum": [
                "ready",
                "degraded"
              ]
            },
            "problems": {
              "type": "array",
              "maxItems": 100,
              "items": {
                "type": "object",
                "required": [
                  "component",
                  "since",
                  "identifier"
                ],
                "additionalProperties": false,
                "properties": {
                  "component": {
                    "type": "string",
                    "maxLength": 64
                  },
                  "since": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "identifier": {
                    "type": "string",
                    "maxLength": 64
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getAdminSession",
    "method": "GET",
    "path": "/admin/api/auth",
    "url": "/admin/api/auth",
    "tag": "Admin",
    "summary": "Read the panel session",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {},
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "email",
            "csrf_token",
            "expires_at"
          ],
          "properties": {
            "email": {
              "type": "string"
            },
            "csrf_token": {
              "type": "string"
            },
            "expires_at": {
              "type": "string",
              "format": "date-time"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "signIn",
    "method": "POST",
    "path": "/admin/api/auth",
    "url": "/admin/api/auth",
    "tag": "Admin",
    "summary": "Sign in to the admin panel",
    "requiredScopes": [],
    "security": "none",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "email",
          "password"
        ],
        "properties": {
          "email": {
            "type": "string",
            "minLength": 3,
            "maxLength": 254
          },
          "password": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1024
          }
        }
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "email",
            "csrf_token",
            "expires_at"
          ],
          "properties": {
            "email": {
              "type": "string"
            },
            "csrf_token": {
              "type": "string"
            },
            "expires_at": {
              "type": "string",
              "format": "date-time"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "signOut",
    "method": "DELETE",
    "path": "/admin/api/auth",
    "url": "/admin/api/auth",
    "tag": "Admin",
    "summary": "Sign out of the admin panel",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "204": {
        "contentType": null,
        "schema": null
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listUsers",
    "method": "GET",
    "path": "/admin/api/user",
    "url": "/admin/api/user",
    "tag": "Admin",
    "summary": "List accounts",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "querystring": {
        "type": "object",
        "properties": {
          "q": {
            "type": "string",
            "maxLength": 100
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000
          },
          "cursor": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512
          }
        }
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "users",
            "next_cursor"
          ],
          "properties": {
            "users": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "name",
                  "email",
                  "operator",
                  "disabled",
                  "created",
                  "quota",
                  "locations",
                  "images"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "email": {
                    "type": "string",
                    "nullable": true
                  },
                  "operator": {
                    "type": "boolean"
                  },
                  "disabled": {
                    "type": "boolean"
                  },
                  "created": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "quota": {
                    "type": "object",
                    "required": [
                      "total",
                      "used",
                      "remaining"
                    ],
                    "properties": {
                      "total": {
                        "type": "integer",
                        "minimum": 0
                      },
                      "used": {
                        "type": "number",
                        "minimum": 0
                      },
                      "remaining": {
                        "type": "number",
                        "minimum": 0
                      }
                    }
                  },
                  "locations": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "images": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                }
              }
            },
            "next_cursor": {
              "type": "string",
              "nullable": true
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "createUser",
    "method": "POST",
    "path": "/admin/api/user",
    "url": "/admin/api/user",
    "tag": "Admin",
    "summary": "Onboard an account",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name",
          "email",
          "quota_minutes"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100
          },
          "email": {
            "type": "string",
            "pattern": "^[^@\\s]+@[^@\\s]+$",
            "maxLength": 254
          },
          "quota_minutes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100000000
          },
          "locations": {
            "type": "array",
            "maxItems": 100,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          },
          "images": {
            "type": "array",
            "maxItems": 100,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          }
        }
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "201": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "email",
            "operator",
            "disabled",
            "created",
            "quota",
            "locations",
            "images"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "email": {
              "type": "string",
              "nullable": true
            },
            "operator": {
              "type": "boolean"
            },
            "disabled": {
              "type": "boolean"
            },
            "created": {
              "type": "string",
              "format": "date-time"
            },
            "quota": {
              "type": "object",
              "required": [
                "total",
                "used",
                "remaining"
              ],
              "properties": {
                "total": {
                  "type": "integer",
                  "minimum": 0
                },
                "used": {
                  "type": "number",
                  "minimum": 0
                },
                "remaining": {
                  "type": "number",
                  "minimum": 0
                }
              }
            },
            "locations": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "images": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "getUser",
    "method": "GET",
    "path": "/admin/api/user/{id}",
    "url": "/admin/api/user/:id",
    "tag": "Admin",
    "summary": "Read an account",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          }
        },
        "required": [
          "id"
        ]
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "email",
            "operator",
            "disabled",
            "created",
            "quota",
            "locations",
            "images"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "email": {
              "type": "string",
              "nullable": true
            },
            "operator": {
              "type": "boolean"
            },
            "disabled": {
              "type": "boolean"
            },
            "created": {
              "type": "string",
              "format": "date-time"
            },
            "quota": {
              "type": "object",
              "required": [
                "total",
                "used",
                "remaining"
              ],
              "properties": {
                "total": {
                  "type": "integer",
                  "minimum": 0
                },
                "used": {
                  "type": "number",
                  "minimum": 0
                },
                "remaining": {
                  "type": "number",
                  "minimum": 0
                }
              }
            },
            "locations": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "images": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "updateUser",
    "method": "PATCH",
    "path": "/admin/api/user/{id}",
    "url": "/admin/api/user/:id",
    "tag": "Admin",
    "summary": "Update an account",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "minProperties": 1,
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100
          },
          "quota_minutes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100000000
          },
          "disabled": {
            "type": "boolean"
          },
          "locations": {
            "type": "array",
            "maxItems": 100,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          },
          "images": {
            "type": "array",
            "maxItems": 100,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          }
        }
      },
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "email",
            "operator",
            "disabled",
            "created",
            "quota",
            "locations",
            "images"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "email": {
              "type": "string",
              "nullable": true
            },
            "operator": {
              "type": "boolean"
            },
            "disabled": {
              "type": "boolean"
            },
            "created": {
              "type": "string",
              "format": "date-time"
            },
            "quota": {
              "type": "object",
              "required": [
                "total",
                "used",
                "remaining"
              ],
              "properties": {
                "total": {
                  "type": "integer",
                  "minimum": 0
                },
                "used": {
                  "type": "number",
                  "minimum": 0
                },
                "remaining": {
                  "type": "number",
                  "minimum": 0
                }
              }
            },
            "locations": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "images": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listUserTokens",
    "method": "GET",
    "path": "/admin/api/user/{id}/token",
    "url": "/admin/api/user/:id/token",
    "tag": "Admin",
    "summary": "List an account's tokens",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          }
        },
        "required": [
          "id"
        ]
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "tokens"
          ],
          "properties": {
            "tokens": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "name",
                  "scopes",
                  "token",
                  "status",
                  "expires_at",
                  "created",
                  "last_used"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "scopes": {
                    "type": "array",
                    "items": {
                      "type": "string",
                      "enum": [
                        "session:start",
                        "session:read",
                        "session:stop",
                        "logs:read",
                        "artifact:read",
                        "regions:read",
                        "events:write",
                        "token:write",
                        "webhook:repohost"
                      ]
                    }
                  },
                  "token": {
                    "type": "string"
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "active",
                      "disabled",
                      "expired"
                    ]
                  },
                  "expires_at": {
                    "type": "string",
                    "format": "date-time",
                    "nullable": true
                  },
                  "created": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "last_used": {
                    "type": "string",
                    "format": "date-time",
                    "nullable": true
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "createUserToken",
    "method": "POST",
    "path": "/admin/api/user/{id}/token",
    "url": "/admin/api/user/:id/token",
    "tag": "Admin",
    "summary": "Add a token to an account",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name",
          "scopes"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100
          },
          "scopes": {
            "type": "array",
            "minItems": 1,
            "maxItems": 9,
            "uniqueItems": true,
            "items": {
              "type": "string",
              "enum": [
                "session:start",
                "session:read",
                "session:stop",
                "logs:read",
                "artifact:read",
                "regions:read",
                "events:write",
                "token:write",
                "webhook:repohost"
              ]
            }
          },
          "expires_after": {
            "allOf": [
              {
                "type": "string",
                "title": "a duration such as 30m, 2h or 1h30m",
                "pattern": "^(?=\\d)(?:[1-9]\\d{0,5}h)?(?:[1-9]\\d{0,5}m)?$",
                "minLength": 2,
                "maxLength": 15
              }
            ]
          }
        }
      },
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "201": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "scopes",
            "token",
            "expires_at",
            "created"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "scopes": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "session:start",
                  "session:read",
                  "session:stop",
                  "logs:read",
                  "artifact:read",
                  "regions:read",
                  "events:write",
                  "token:write",
                  "webhook:repohost"
                ]
              }
            },
            "token": {
              "type": "string"
            },
            "expires_at": {
              "type": "string",
              "format": "date-time",
              "nullable": true
            },
            "created": {
              "type": "string",
              "format": "date-time"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "deleteUserToken",
    "method": "DELETE",
    "path": "/admin/api/user/{id}/token/{tokenId}",
    "url": "/admin/api/user/:id/token/:tokenId",
    "tag": "Admin",
    "summary": "Delete a token",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          },
          "tokenId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        },
        "required": [
          "id",
          "tokenId"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "204": {
        "contentType": null,
        "schema": null
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "updateUserToken",
    "method": "PATCH",
    "path": "/admin/api/user/{id}/token/{tokenId}",
    "url": "/admin/api/user/:id/token/:tokenId",
    "tag": "Admin",
    "summary": "Disable or enable a token",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "disabled"
        ],
        "properties": {
          "disabled": {
            "type": "boolean"
          }
        }
      },
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          },
          "tokenId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        },
        "required": [
          "id",
          "tokenId"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "name",
            "scopes",
            "token",
            "status",
            "expires_at",
            "created",
            "last_used"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "scopes": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "session:start",
                  "session:read",
                  "session:stop",
                  "logs:read",
                  "artifact:read",
                  "regions:read",
                  "events:write",
                  "token:write",
                  "webhook:repohost"
                ]
              }
            },
            "token": {
              "type": "string"
            },
            "status": {
              "type": "string",
              "enum": [
                "active",
                "disabled",
                "expired"
              ]
            },
            "expires_at": {
              "type": "string",
              "format": "date-time",
              "nullable": true
            },
            "created": {
              "type": "string",
              "format": "date-time"
            },
            "last_used": {
              "type": "string",
              "format": "date-time",
              "nullable": true
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "revealUserToken",
    "method": "POST",
    "path": "/admin/api/user/{id}/token/{tokenId}/reveal",
    "url": "/admin/api/user/:id/token/:tokenId/reveal",
    "tag": "Admin",
    "summary": "Reveal a token's value",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          },
          "tokenId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        },
        "required": [
          "id",
          "tokenId"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "token"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "token": {
              "type": "string"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listUserAudit",
    "method": "GET",
    "path": "/admin/api/user/{id}/audit",
    "url": "/admin/api/user/:id/audit",
    "tag": "Admin",
    "summary": "Read an account's audit log",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^acc_[0-9a-z]{1,40}$"
          }
        },
        "required": [
          "id"
        ]
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "entries"
          ],
          "properties": {
            "entries": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "at",
                  "actor",
                  "action",
                  "token_id",
                  "details"
                ],
                "properties": {
                  "id": {
                    "type": "integer"
                  },
                  "at": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "actor": {
                    "type": "string"
                  },
                  "action": {
                    "type": "string",
                    "enum": [
                      "user_created",
                      "user_updated",
                      "user_disabled",
                      "user_enabled",
                      "token_created",
                      "token_revealed",
                      "token_disabled",
                      "token_enabled",
                      "token_deleted"
                    ]
                  },
                  "token_id": {
                    "type": "string",
                    "nullable": true
                  },
                  "details": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listFleetLocations",
    "method": "GET",
    "path": "/admin/api/location",
    "url": "/admin/api/location",
    "tag": "Admin",
    "summary": "List every location",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {},
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "locations"
          ],
          "properties": {
            "locations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "status",
                  "ips",
                  "capacity",
                  "nodes"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "available",
                      "full",
                      "locked"
                    ]
                  },
                  "ips": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "capacity": {
                    "type": "object",
                    "required": [
                      "total",
                      "used",
                      "free"
                    ],
                    "properties": {
                      "total": {
                        "type": "integer"
                      },
                      "used": {
                        "type": "integer"
                      },
                      "free": {
                        "type": "integer"
                      }
                    }
                  },
                  "nodes": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "id",
                        "host",
                        "locked",
                        "capacity",
                        "used"
                      ],
                      "properties": {
                        "id": {
                          "type": "string"
                        },
                        "host": {
                          "type": "string"
                        },
                        "locked": {
                          "type": "boolean"
                        },
                        "capacity": {
                          "type": "integer"
                        },
                        "used": {
                          "type": "integer"
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "updateNode",
    "method": "PATCH",
    "path": "/admin/api/node/{id}",
    "url": "/admin/api/node/:id",
    "tag": "Admin",
    "summary": "Lock or unlock a node",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": "application/json",
    "schema": {
      "body": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "locked"
        ],
        "properties": {
          "locked": {
            "type": "boolean"
          }
        }
      },
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "id",
            "host",
            "locked",
            "capacity",
            "used"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "host": {
              "type": "string"
            },
            "locked": {
              "type": "boolean"
            },
            "capacity": {
              "type": "integer"
            },
            "used": {
              "type": "integer"
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "413": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "415": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listAllSessions",
    "method": "GET",
    "path": "/admin/api/session",
    "url": "/admin/api/session",
    "tag": "Admin",
    "summary": "List sessions of every account",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "querystring": {
        "type": "object",
        "properties": {
          "account": {
            "type": "string",
            "maxLength": 64
          },
          "all": {
            "type": "boolean",
            "default": false
          },
          "location": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "image": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "tag": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "host": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "status": {
            "type": "string",
            "enum": [
              "created",
              "running",
              "restarting",
              "draining",
              "shuttingdown",
              "server_unreachable",
              "exited",
              "dead"
            ]
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000
          },
          "cursor": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512
          }
        }
      }
    },
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "sessions"
          ],
          "properties": {
            "sessions": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "id",
                  "image",
                  "tag",
                  "location",
                  "host",
                  "created",
                  "started",
                  "port",
                  "ports",
                  "status",
                  "labels",
                  "players",
                  "ended",
                  "exit_code",
                  "end_reason"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "image": {
                    "type": "string"
                  },
                  "tag": {
                    "type": "string"
                  },
                  "location": {
                    "type": "string"
                  },
                  "host": {
                    "type": "string"
                  },
                  "created": {
                    "type": "integer",
                    "format": "int64"
                  },
                  "started": {
                    "type": "integer",
                    "format": "int64",
                    "nullable": true
                  },
                  "port": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "integer"
                    }
                  },
                  "ports": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "type",
                        "container",
                        "host"
                      ],
                      "properties": {
                        "type": {
                          "type": "string",
                          "enum": [
                            "tcp",
                            "udp"
                          ]
                        },
                        "container": {
                          "type": "integer"
                        },
                        "host": {
                          "type": "integer"
                        },
                        "name": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "created",
                      "running",
                      "restarting",
                      "draining",
                      "shuttingdown",
                      "server_unreachable",
                      "exited",
                      "dead"
                    ]
                  },
                  "labels": {
                    "type": "object",
                    "maxProperties": 64,
                    "additionalProperties": {
                      "type": "string",
                      "maxLength": 1024
                    }
                  },
                  "players": {
                    "type": "object",
                    "required": [
                      "joined",
                      "joinedCount"
                    ],
                    "properties": {
                      "joined": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      },
                      "joinedCount": {
                        "type": "integer",
                        "minimum": 0
                      }
                    }
                  },
                  "restart": {
                    "type": "boolean"
                  },
                  "expires": {
                    "type": "integer",
                    "format": "int64",
                    "nullable": true
                  },
                  "ended": {
                    "type": "integer",
                    "format": "int64",
                    "nullable": true
                  },
                  "exit_code": {
                    "type": "integer",
                    "nullable": true
                  },
                  "end_reason": {
                    "type": "string",
                    "nullable": true,
                    "enum": [
                      "stopped",
                      "exited",
                      "crashed",
                      "ttl_expired",
                      "quota_exhausted",
                      "start_failed",
                      "node_lost",
                      null
                    ]
                  }
                }
              }
            },
            "next_cursor": {
              "type": "string",
              "nullable": true
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "422": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "stopAnySession",
    "method": "DELETE",
    "path": "/admin/api/session/{id}",
    "url": "/admin/api/session/:id",
    "tag": "Admin",
    "summary": "Stop any session",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          }
        },
        "required": [
          "id"
        ]
      },
      "headers": {
        "type": "object",
        "properties": {
          "x-csrf-token": {
            "type": "string",
            "maxLength": 128
          }
        },
        "required": []
      }
    },
    "responses": {
      "204": {
        "contentType": null,
        "schema": null
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "409": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "tailSessionLogs",
    "method": "GET",
    "path": "/admin/api/session/{id}/logs",
    "url": "/admin/api/session/:id/logs",
    "tag": "Admin",
    "summary": "Read the tail of a session's logs",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {
      "params": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          }
        },
        "required": [
          "id"
        ]
      }
    },
    "responses": {
      "200": {
        "contentType": "text/plain",
        "schema": {
          "type": "string"
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "404": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  {
    "operationId": "listImages",
    "method": "GET",
    "path": "/admin/api/image",
    "url": "/admin/api/image",
    "tag": "Admin",
    "summary": "List the image catalog",
    "requiredScopes": [],
    "security": "adminSession",
    "requestContentType": null,
    "schema": {},
    "responses": {
      "200": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "images"
          ],
          "properties": {
            "images": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "name",
                  "default_tag",
                  "public",
                  "accounts",
                  "tags"
                ],
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "default_tag": {
                    "type": "string"
                  },
                  "public": {
                    "type": "boolean"
                  },
                  "accounts": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "tags": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "name",
                        "source",
                        "account",
                        "registered"
                      ],
                      "properties": {
                        "name": {
                          "type": "string"
                        },
                        "source": {
                          "type": "string",
                          "enum": [
                            "fleet",
                            "registry"
                          ]
                        },
                        "account": {
                          "type": "string",
                          "nullable": true
                        },
                        "registered": {
                          "type": "string",
                          "format": "date-time",
                          "nullable": true
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      },
      "401": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      },
      "500": {
        "contentType": "application/json",
        "schema": {
          "type": "object",
          "required": [
            "statusCode",
            "code",
            "message",
            "path",
            "identifier",
            "timestamp"
          ],
          "properties": {
            "statusCode": {
              "type": "integer"
            },
            "code": {
              "type": "string",
              "enum": [
                "UNAUTHORIZED",
                "QUOTA_EXCEEDED",
                "RESOURCE_NOT_FOUND",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MEDIA_TYPE",
                "CAPACITY_UNAVAILABLE",
                "INVALID_REQUEST",
                "INTERNAL_ERROR"
              ]
            },
            "message": {
              "type": "string"
            },
            "details": {
              "type": "string"
            },
            "path": {
              "type": "string"
            },
            "identifier": {
              "type": "string"
            },
            "timestamp": {
              "type": "string",
              "format": "date-time"
            },
            "violations": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "field",
                  "description"
                ],
                "properties": {
                  "field": {
                    "type": "string"
                  },
                  "description": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    }
  }
];
