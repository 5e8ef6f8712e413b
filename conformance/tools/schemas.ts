import { createTool } from 'toolroute'

/** json-schema-2020-12: a plain JSON Schema input, listed as written (SEP-1613, SEP-2106). */
export const jsonSchema202012Tool = createTool({
  id: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  execute: async () => 'ok',
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/**
 * http-custom-header-server-validation (SEP-2243): a string argument mirrored in an
 * `Mcp-Param-Region` header (`x-mcp-header`), which the server checks against the body.
 */
export const testCustomHeader = createTool({
  id: 'test_custom_header',
  description: 'Echoes a region that the client also sends as the Mcp-Param-Region header',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', description: 'A region name', 'x-mcp-header': 'Region' } },
    required: ['region'],
  },
  execute: async (input) => `region: ${String((input as { region: string }).region)}`,
  toModelOutput: (output) => ({ type: 'text', value: output }),
})
