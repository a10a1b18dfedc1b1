/**
 * The provider token formats (SPEC.md: The handoff, "provider token formats … taken from maintained secret-scanning
 * rule sets"; docs/handoff.md, Token formats), as data: facts taken from gitleaks' default rule set
 * (`config/gitleaks.toml` and the rules of `cmd/generate/config/rules/`, MIT) and secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend` 13.1.0, MIT), each row naming its provider and the rule it comes
 * from; a few rows of our own (`hark-memory`) where neither has the format. ./tokens matches them.
 *
 * The table is one string of JSON rows, read once on first use (`tokenFormats`): Claude Code reads and checks
 * every line of the module at every start, and rows written as code cost it about twenty times what the same
 * rows cost as one string (docs/engine.md, "Before the worker").
 *
 * Two kinds of row, and the kind says whether a token's shape alone is enough (./tokens): a prefixed row's token is
 * recognised anywhere by its shape (a fixed prefix, after a lead when it has one, then a body whose length, shape and
 * entropy fit); a keyword row's value only near its provider's name (KEYWORD_WINDOW). Where a rule set asks
 * for the name beside a value with a fixed part (Mapbox `pk.`, Lob `live_`, Telegram's `:A`, Twitter's numeric id and
 * `-`), the format is a prefixed row when no word, path or identifier has that shape; those whose body could be a
 * name's (`b_`, `live_`, `YC`) also want three digits in it.
 *
 * A row is a format, one a line, its fields as PrefixedFormat and KeywordFormat below name them (a line starting
 * with `//` is a comment; JSON.parse reads the rows as one array). An alphabet is written as in a character class
 * (`A-Za-z0-9_-`) or by one of the names in ALPHABETS; a shape or an allowlist is a regex literal in a string
 * (`"/^[a-z]{2}$/i"`, backslashes doubled). So the table is read in one step: any string of it that is one of
 * ALPHABETS' names stands for that alphabet, and any that starts with `/` is a regex (no provider, source, prefix
 * or keyword is either: spec/core/token-formats.spec.ts).
 */
/**
 * Where a keyword token's value may stand around its provider's name, on the name's line: after the name or before it,
 * starting at most this many characters from it, so the name may open a long sentence, follow the value in
 * parentheses or stand in the sentence before or after (gitleaks wants it about 30 characters before the value, beside
 * `=` or `:`).
 */
export const KEYWORD_WINDOW = 160
/** The shortest keyword token's value (LinkedIn's client id): a shorter run is none (spec/core/token-formats.spec.ts). */
export const VALUE_MIN = 14
/** Shape and entropy checks read at most this much of a candidate. */
export const CHECK_LIMIT = 512

/** An alphabet, written as in a character class: `A-Za-z0-9_-`. */
export type Alphabet = string

export const DIGITS = '0-9'

/** Alphabets the rows name (one string, as the table is: the engine reads it as a single literal). */
export const ALPHABETS: Readonly<Record<string, Alphabet>> = JSON.parse(
  '{"AN":"A-Za-z0-9","W":"A-Za-z0-9_","WD":"A-Za-z0-9_-","HEX":"0-9a-fA-F","HEXD":"0-9a-fA-F-","B64":"A-Za-z0-9+/=","UPN":"A-Z0-9","WDOT":"A-Za-z0-9_.=-","AND":"A-Za-z0-9-","DIGITS":"0-9"}',
)

/** A prefixed token format. */
export interface PrefixedFormat {
  readonly kind: 'prefixed'
  /** The provider and the token's kind, for people. */
  readonly provider: string
  /** Where the facts come from: `gitleaks <rule id>`, `secretlint <rule>` or `hark-memory (…)`. */
  readonly source: string
  /** Literal prefixes, matched case-sensitively unless `anyCase`. */
  readonly prefixes: readonly string[]
  readonly anyCase?: boolean
  /** The alphabet of what follows the prefix, and how long that run may be. */
  readonly body: Alphabet
  readonly min: number
  readonly max: number
  /** A longer run is still this token (the rule set's pattern has no end boundary): the whole run goes. */
  readonly open?: boolean
  /** The prefix stays and only the body goes (a webhook's host and fixed path). */
  readonly keep?: boolean
  /** The body (at most CHECK_LIMIT characters of it) must match this. */
  readonly shape?: RegExp
  /** The whole token's Shannon entropy (bits a character) must reach this (the rule set's own threshold). */
  readonly entropy?: number
  /** A token this matches stays as written (the rule set's allowlist: documentation examples). */
  readonly allow?: RegExp
  /** The token starts with a run of this alphabet, min to max long, before its prefix (Azure's `…8Q~…`, Telegram's bot id). */
  readonly lead?: { readonly min: number; readonly max: number; readonly body: Alphabet }
}

/** A keyword token format: a value near the provider's name. */
export interface KeywordFormat {
  readonly kind: 'keyword'
  readonly provider: string
  readonly source: string
  /** The provider's names, in lower case. */
  readonly keywords: readonly string[]
  /** The value's possible forms. */
  readonly values: readonly { readonly body: Alphabet; readonly min: number; readonly max: number; readonly shape?: RegExp }[]
}

export type TokenFormat = PrefixedFormat | KeywordFormat

let formats: readonly TokenFormat[] | undefined

/** The formats, read from TABLE on the first call. */
export function tokenFormats(): readonly TokenFormat[] {
  const read = (_: string, v: unknown): unknown => (typeof v !== 'string' ? v : v[0] === '/' ? new RegExp(v.slice(1, v.lastIndexOf('/')), v.slice(v.lastIndexOf('/') + 1)) : (ALPHABETS[v] ?? v))
  formats ??= JSON.parse(`[${TABLE.split('\n').filter((line) => line !== '' && !line.startsWith('//')).join(',')}]`, read) as TokenFormat[]
  return formats
}

/** The rows, one a line (spec/core/token-formats.spec.ts parses them and checks each against its typed shape). */
export const TABLE = String.raw`
{"kind":"prefixed","provider":"1Password secret key","source":"gitleaks 1password-secret-key","prefixes":["A3-"],"body":"A-Z0-9-","min":36,"max":37,"shape":"/^[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}$/","entropy":3.8}
{"kind":"prefixed","provider":"1Password service account token","source":"gitleaks 1password-service-account-token; secretlint 1password","prefixes":["ops_eyJ"],"body":"B64","min":100,"max":4000,"open":true,"entropy":4}
{"kind":"keyword","provider":"Adafruit API key","source":"gitleaks adafruit-api-key","keywords":["adafruit"],"values":[{"body":"WD","min":32,"max":32}]}
{"kind":"keyword","provider":"Adobe client id","source":"gitleaks adobe-client-id","keywords":["adobe"],"values":[{"body":"HEX","min":32,"max":32}]}
{"kind":"prefixed","provider":"Adobe client secret","source":"gitleaks adobe-client-secret","prefixes":["p8e-"],"body":"AN","min":32,"max":32,"entropy":2}
{"kind":"prefixed","provider":"age secret key","source":"gitleaks age-secret-key","prefixes":["AGE-SECRET-KEY-1"],"body":"UPN","min":58,"max":58}
{"kind":"keyword","provider":"Airtable API key","source":"gitleaks airtable-api-key","keywords":["airtable"],"values":[{"body":"AN","min":17,"max":17}]}
{"kind":"keyword","provider":"Algolia API key","source":"gitleaks algolia-api-key","keywords":["algolia"],"values":[{"body":"AN","min":32,"max":32}]}
{"kind":"prefixed","provider":"Alibaba Cloud AccessKey id","source":"gitleaks alibaba-access-key-id","prefixes":["LTAI"],"body":"AN","min":20,"max":20,"entropy":2}
{"kind":"keyword","provider":"Alibaba Cloud secret key","source":"gitleaks alibaba-secret-key","keywords":["alibaba"],"values":[{"body":"AN","min":30,"max":30}]}
// gitleaks and secretlint want 93 characters then 'AA'; any run this long after 'sk-ant-' is taken.
{"kind":"prefixed","provider":"Anthropic API or admin key","source":"gitleaks anthropic-api-key, anthropic-admin-api-key; secretlint anthropic","prefixes":["sk-ant-"],"body":"WD","min":32,"max":200,"open":true,"entropy":3}
{"kind":"prefixed","provider":"Artifactory API key","source":"gitleaks artifactory-api-key","prefixes":["AKCp"],"body":"AN","min":69,"max":69,"entropy":4.5}
{"kind":"prefixed","provider":"Artifactory reference token","source":"gitleaks artifactory-reference-token","prefixes":["cmVmd"],"body":"AN","min":59,"max":59,"entropy":4.5}
{"kind":"keyword","provider":"Asana client id or secret","source":"gitleaks asana-client-id, asana-client-secret","keywords":["asana"],"values":[{"body":"DIGITS","min":16,"max":16},{"body":"AN","min":32,"max":32}]}
{"kind":"prefixed","provider":"Atlassian API token","source":"gitleaks atlassian-api-token","prefixes":["ATATT3"],"body":"WDOT","min":150,"max":250,"entropy":3.5}
{"kind":"keyword","provider":"Atlassian API token (legacy)","source":"gitleaks atlassian-api-token","keywords":["atlassian","confluence","jira"],"values":[{"body":"AN","min":24,"max":24,"shape":"/^[a-zA-Z0-9]{20}[a-fA-F0-9]{4}$/"}]}
{"kind":"prefixed","provider":"Authress service client key","source":"gitleaks authress-service-client-access-key","prefixes":["sc_","ext_","scauth_","authress_"],"body":"A-Za-z0-9_.+/=-","min":50,"max":200,"shape":"/^[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120}$/i"}
{"kind":"prefixed","provider":"AWS access key id","source":"gitleaks aws-access-token; secretlint aws","prefixes":["AKIA","ASIA","ABIA","ACCA","AGPA","AIDA","AROA","AIPA","ANPA","ANVA"],"body":"UPN","min":16,"max":16,"entropy":3,"allow":"/EXAMPLE$/"}
{"kind":"prefixed","provider":"AWS access key id (A3T)","source":"gitleaks aws-access-token","prefixes":["A3T"],"body":"UPN","min":17,"max":17,"entropy":3,"allow":"/EXAMPLE$/"}
{"kind":"prefixed","provider":"Azure AD client secret","source":"gitleaks azure-ad-client-secret","prefixes":["Q~"],"body":"A-Za-z0-9_~.-","min":31,"max":34,"entropy":3,"lead":{"min":4,"max":4,"body":"A-Za-z0-9_~."}}
{"kind":"prefixed","provider":"Beamer API token","source":"gitleaks beamer-api-token","prefixes":["b_"],"body":"A-Za-z0-9=_-","min":44,"max":44,"anyCase":true,"shape":"/^(?:\\D*\\d){3}/","entropy":4}
{"kind":"keyword","provider":"Bitbucket client id or secret","source":"gitleaks bitbucket-client-id, bitbucket-client-secret","keywords":["bitbucket"],"values":[{"body":"AN","min":32,"max":32},{"body":"A-Za-z0-9=_-","min":64,"max":64}]}
{"kind":"keyword","provider":"Bittrex access or secret key","source":"gitleaks bittrex-access-key, bittrex-secret-key","keywords":["bittrex"],"values":[{"body":"AN","min":32,"max":32}]}
{"kind":"keyword","provider":"Cisco Meraki API key","source":"gitleaks cisco-meraki-api-key","keywords":["meraki"],"values":[{"body":"HEX","min":40,"max":40}]}
{"kind":"prefixed","provider":"ClickHouse Cloud API secret","source":"gitleaks clickhouse-cloud-api-secret-key","prefixes":["4b1d"],"body":"AN","min":38,"max":38,"entropy":3}
{"kind":"prefixed","provider":"Clojars API token","source":"gitleaks clojars-api-token","prefixes":["CLOJARS_"],"body":"AN","min":60,"max":60,"anyCase":true,"open":true,"entropy":2}
{"kind":"keyword","provider":"Cloudflare API key","source":"gitleaks cloudflare-api-key, cloudflare-global-api-key","keywords":["cloudflare"],"values":[{"body":"WD","min":40,"max":40},{"body":"HEX","min":37,"max":37}]}
{"kind":"prefixed","provider":"Cloudflare API token","source":"secretlint cloudflare","prefixes":["cfk_","cfut_","cfat_"],"body":"AN","min":48,"max":48,"shape":"/^[A-Za-z0-9]{40}[0-9a-f]{8}$/"}
{"kind":"prefixed","provider":"Cloudflare Origin CA key","source":"gitleaks cloudflare-origin-ca-key","prefixes":["v1.0-"],"body":"HEXD","min":171,"max":171,"shape":"/^[a-f0-9]{24}-[a-f0-9]{146}$/","entropy":2}
{"kind":"keyword","provider":"Codecov access token","source":"gitleaks codecov-access-token","keywords":["codecov"],"values":[{"body":"AN","min":32,"max":32}]}
{"kind":"keyword","provider":"Cohere API token","source":"gitleaks cohere-api-token","keywords":["cohere","co_api_key"],"values":[{"body":"AN","min":40,"max":40}]}
{"kind":"keyword","provider":"Coinbase access token","source":"gitleaks coinbase-access-token","keywords":["coinbase"],"values":[{"body":"WD","min":64,"max":64}]}
{"kind":"keyword","provider":"Confluent access token or secret","source":"gitleaks confluent-access-token, confluent-secret-key","keywords":["confluent"],"values":[{"body":"AN","min":16,"max":16},{"body":"AN","min":64,"max":64}]}
{"kind":"keyword","provider":"Contentful delivery token","source":"gitleaks contentful-delivery-api-token","keywords":["contentful"],"values":[{"body":"A-Za-z0-9=_-","min":43,"max":43}]}
{"kind":"prefixed","provider":"Databricks API token","source":"gitleaks databricks-api-token; secretlint databricks","prefixes":["dapi"],"body":"HEXD","min":32,"max":34,"shape":"/^[a-fA-F0-9]{32}(?:-\\d)?$/","entropy":3}
{"kind":"keyword","provider":"Datadog access token","source":"gitleaks datadog-access-token","keywords":["datadog"],"values":[{"body":"AN","min":40,"max":40}]}
{"kind":"prefixed","provider":"Defined Networking API token","source":"gitleaks defined-networking-api-token","prefixes":["dnkey-"],"body":"A-Za-z0-9=_-","min":79,"max":79}
{"kind":"prefixed","provider":"DigitalOcean token","source":"gitleaks digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token","prefixes":["dop_v1_","doo_v1_","dor_v1_"],"body":"HEX","min":64,"max":64,"anyCase":true,"entropy":3}
{"kind":"keyword","provider":"Discord API token, client id or secret","source":"gitleaks discord-api-token, discord-client-id, discord-client-secret","keywords":["discord"],"values":[{"body":"HEX","min":64,"max":64},{"body":"DIGITS","min":18,"max":18},{"body":"A-Za-z0-9=_-","min":32,"max":32}]}
{"kind":"prefixed","provider":"Docker Hub personal access token","source":"secretlint docker","prefixes":["dckr_pat_"],"body":"WD","min":27,"max":27}
{"kind":"prefixed","provider":"Doppler API token","source":"gitleaks doppler-api-token","prefixes":["dp.pt."],"body":"AN","min":43,"max":43,"entropy":2}
{"kind":"keyword","provider":"Drone CI access token","source":"gitleaks droneci-access-token","keywords":["droneci","drone ci"],"values":[{"body":"AN","min":32,"max":32}]}
{"kind":"keyword","provider":"Dropbox API token","source":"gitleaks dropbox-api-token, dropbox-long-lived-api-token","keywords":["dropbox"],"values":[{"body":"AN","min":15,"max":15},{"body":"A-Za-z0-9=_-","min":64,"max":64,"shape":"/^[a-z0-9]{11}AAAAAAAAAA/i"}]}
{"kind":"prefixed","provider":"Dropbox short-lived token","source":"gitleaks dropbox-short-lived-api-token","prefixes":["sl."],"body":"A-Za-z0-9=_-","min":135,"max":1500,"anyCase":true,"open":true,"entropy":3}
{"kind":"prefixed","provider":"Duffel API token","source":"gitleaks duffel-api-token","prefixes":["duffel_test_","duffel_live_"],"body":"A-Za-z0-9_=-","min":43,"max":43,"entropy":2}
{"kind":"prefixed","provider":"Dynatrace API token","source":"gitleaks dynatrace-api-token","prefixes":["dt0c01."],"body":"A-Za-z0-9.","min":89,"max":89,"shape":"/^[a-z0-9]{24}\\.[a-z0-9]{64}$/i","entropy":4}
{"kind":"prefixed","provider":"EasyPost API token","source":"gitleaks easypost-api-token, easypost-test-api-token","prefixes":["EZAK","EZTK"],"body":"AN","min":54,"max":54,"entropy":2}
{"kind":"keyword","provider":"Etsy access token","source":"gitleaks etsy-access-token","keywords":["etsy"],"values":[{"body":"AN","min":24,"max":24}]}
{"kind":"prefixed","provider":"Facebook page access token","source":"gitleaks facebook-page-access-token","prefixes":["EAAM","EAAC"],"body":"AN","min":100,"max":4000,"open":true,"entropy":4}
{"kind":"keyword","provider":"Facebook secret","source":"gitleaks facebook-secret","keywords":["facebook"],"values":[{"body":"HEX","min":32,"max":32}]}
{"kind":"prefixed","provider":"Facebook access token","source":"gitleaks facebook-access-token","prefixes":["0|","1|","2|","3|","4|","5|","6|","7|","8|","9|","0%","1%","2%","3%","4%","5%","6%","7%","8%","9%"],"body":"0-9A-Za-z_-","min":27,"max":40,"entropy":3,"lead":{"min":14,"max":15,"body":"DIGITS"}}
{"kind":"keyword","provider":"Fastly API token","source":"gitleaks fastly-api-token","keywords":["fastly"],"values":[{"body":"A-Za-z0-9=_-","min":32,"max":32}]}
{"kind":"prefixed","provider":"Figma personal access token","source":"secretlint figma","prefixes":["figd_"],"body":"WD","min":40,"max":200}
{"kind":"keyword","provider":"Finicity API token or secret","source":"gitleaks finicity-api-token, finicity-client-secret","keywords":["finicity"],"values":[{"body":"HEX","min":32,"max":32},{"body":"AN","min":20,"max":20}]}
{"kind":"keyword","provider":"Finnhub access token","source":"gitleaks finnhub-access-token","keywords":["finnhub"],"values":[{"body":"AN","min":20,"max":20}]}
{"kind":"keyword","provider":"Flickr access token","source":"gitleaks flickr-access-token","keywords":["flickr"],"values":[{"body":"AN","min":32,"max":32}]}
{"kind":"prefixed","provider":"Flutterwave key","source":"gitleaks flutterwave-encryption-key, flutterwave-secret-key, flutterwave-public-key","prefixes":["FLWSECK_TEST-","FLWPUBK_TEST-"],"body":"AND","min":12,"max":34,"shape":"/^[a-h0-9]{12}$|^[a-h0-9]{32}-X$/i","entropy":2}
{"kind":"prefixed","provider":"Fly.io access token","source":"gitleaks flyio-access-token","prefixes":["fo1_"],"body":"WD","min":43,"max":43,"entropy":4}
{"kind":"prefixed","provider":"Fly.io macaroon token","source":"gitleaks flyio-access-token","prefixes":["fm1a_","fm1r_","fm2_"],"body":"B64","min":100,"max":4000,"open":true,"entropy":4}
{"kind":"prefixed","provider":"Frame.io API token","source":"gitleaks frameio-api-token","prefixes":["fio-u-"],"body":"A-Za-z0-9_=-","min":64,"max":64}
{"kind":"keyword","provider":"FreshBooks access token","source":"gitleaks freshbooks-access-token","keywords":["freshbooks"],"values":[{"body":"AN","min":64,"max":64}]}
{"kind":"prefixed","provider":"Google API key","source":"gitleaks gcp-api-key","prefixes":["AIza"],"body":"WD","min":35,"max":35,"entropy":4}
{"kind":"prefixed","provider":"GitHub token","source":"gitleaks github-pat, github-oauth, github-app-token, github-refresh-token; secretlint github","prefixes":["ghp_","gho_","ghu_","ghs_","ghr_"],"body":"AN","min":36,"max":36,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitHub fine-grained token","source":"gitleaks github-fine-grained-pat; secretlint github","prefixes":["github_pat_"],"body":"W","min":82,"max":82,"open":true,"entropy":3}
{"kind":"keyword","provider":"Gitter access token","source":"gitleaks gitter-access-token","keywords":["gitter"],"values":[{"body":"WD","min":40,"max":40}]}
{"kind":"prefixed","provider":"GitLab CI/CD job token","source":"gitleaks gitlab-cicd-job-token","prefixes":["glcbt-"],"body":"WD","min":22,"max":26,"shape":"/^[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}$/","entropy":3}
{"kind":"prefixed","provider":"GitLab token","source":"gitleaks gitlab-deploy-token, gitlab-feature-flag-client-token, gitlab-feed-token, gitlab-runner-authentication-token, gitlab-scim-token","prefixes":["gldt-","glffct-","glft-","glsoat-"],"body":"WD","min":20,"max":20,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitLab runner authentication token","source":"gitleaks gitlab-runner-authentication-token, -routable","prefixes":["glrt-"],"body":"WDOT","min":20,"max":310,"shape":"/^[\\w-]{20}$|^t\\d_[\\w-]{27,300}\\.[0-9a-z]{9}$/","entropy":3}
{"kind":"prefixed","provider":"GitLab personal access token","source":"gitleaks gitlab-pat, gitlab-pat-routable; secretlint gitlab","prefixes":["glpat-"],"body":"WDOT","min":20,"max":310,"shape":"/^[\\w-]{20,128}$|^[\\w-]{27,300}\\.[0-9a-z]{9}$/","entropy":3}
{"kind":"prefixed","provider":"GitLab incoming mail token","source":"gitleaks gitlab-incoming-mail-token","prefixes":["glimt-"],"body":"WD","min":25,"max":25,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitLab Kubernetes agent token","source":"gitleaks gitlab-kubernetes-agent-token","prefixes":["glagent-"],"body":"WD","min":50,"max":50,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitLab OIDC application secret","source":"gitleaks gitlab-oauth-app-secret","prefixes":["gloas-"],"body":"WD","min":64,"max":64,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitLab pipeline trigger token","source":"gitleaks gitlab-ptt","prefixes":["glptt-"],"body":"HEX","min":40,"max":40,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitLab runner registration token","source":"gitleaks gitlab-rrt","prefixes":["GR1348941"],"body":"WD","min":20,"max":20,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GitLab session cookie","source":"gitleaks gitlab-session-cookie","prefixes":["_gitlab_session="],"body":"a-z0-9","min":32,"max":32,"open":true,"entropy":3}
{"kind":"prefixed","provider":"GoCardless API token","source":"gitleaks gocardless-api-token","prefixes":["live_"],"body":"A-Za-z0-9_=-","min":40,"max":40,"anyCase":true,"shape":"/^(?:\\D*\\d){3}/","entropy":3.5}
{"kind":"prefixed","provider":"Grafana API key","source":"gitleaks grafana-api-key","prefixes":["eyJrIjoi"],"body":"B64","min":70,"max":400,"anyCase":true,"entropy":3}
{"kind":"prefixed","provider":"Grafana Cloud API token","source":"gitleaks grafana-cloud-api-token; secretlint grafana","prefixes":["glc_"],"body":"B64","min":32,"max":403,"anyCase":true,"entropy":3}
{"kind":"prefixed","provider":"Grafana service account token","source":"gitleaks grafana-service-account-token; secretlint grafana","prefixes":["glsa_"],"body":"W","min":41,"max":41,"anyCase":true,"shape":"/^[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}$/","entropy":3}
{"kind":"prefixed","provider":"Groq API key","source":"secretlint groq","prefixes":["gsk_"],"body":"AN","min":52,"max":52}
{"kind":"prefixed","provider":"Harness access token","source":"gitleaks harness-api-key","prefixes":["pat.","sat."],"body":"A-Za-z0-9_.-","min":68,"max":68,"shape":"/^[a-zA-Z0-9_-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}$/"}
{"kind":"prefixed","provider":"HashiCorp Terraform API token","source":"gitleaks hashicorp-tf-api-token","prefixes":[".atlasv1."],"body":"A-Za-z0-9=_-","min":60,"max":70,"entropy":3.5,"lead":{"min":14,"max":14,"body":"AN"}}
{"kind":"keyword","provider":"Heroku API key","source":"gitleaks heroku-api-key","keywords":["heroku"],"values":[{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]}
{"kind":"prefixed","provider":"Heroku API key (v2)","source":"gitleaks heroku-api-key-v2","prefixes":["HRKU-AA"],"body":"WD","min":58,"max":58,"entropy":4}
{"kind":"keyword","provider":"HubSpot API key","source":"gitleaks hubspot-api-key","keywords":["hubspot"],"values":[{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]}
// gitleaks and secretlint: 34 letters; digits are allowed here too, the length still exact.
{"kind":"prefixed","provider":"Hugging Face access token","source":"gitleaks huggingface-access-token; secretlint huggingface","prefixes":["hf_"],"body":"AN","min":34,"max":34,"entropy":2}
{"kind":"prefixed","provider":"Hugging Face organization token","source":"gitleaks huggingface-organization-api-token","prefixes":["api_org_"],"body":"AN","min":34,"max":34,"entropy":2}
{"kind":"prefixed","provider":"Infracost API token","source":"gitleaks infracost-api-token","prefixes":["ico-"],"body":"AN","min":32,"max":32,"entropy":3}
{"kind":"keyword","provider":"Intercom API key","source":"gitleaks intercom-api-key","keywords":["intercom"],"values":[{"body":"A-Za-z0-9=_-","min":60,"max":60}]}
{"kind":"prefixed","provider":"Intra42 client secret","source":"gitleaks intra42-client-secret","prefixes":["s-s4t2ud-","s-s4t2af-"],"body":"HEX","min":64,"max":64,"entropy":3}
{"kind":"keyword","provider":"JFrog API key or identity token","source":"gitleaks jfrog-api-key, jfrog-identity-token","keywords":["jfrog","artifactory","bintray","xray"],"values":[{"body":"AN","min":73,"max":73},{"body":"AN","min":64,"max":64}]}
// gitleaks: 'ey', 17 or more letters and digits, '.ey' and the payload (any JSON header, not only '{"' as 'eyJ').
{"kind":"prefixed","provider":"JSON Web Token","source":"gitleaks jwt","prefixes":["ey"],"body":"A-Za-z0-9_./\\=+-","min":37,"max":8000,"open":true,"shape":"/^[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9/\\\\_-]{17,}\\.?/","entropy":3}
{"kind":"prefixed","provider":"JSON Web Token, base64","source":"gitleaks jwt-base64","prefixes":["ZXlK"],"body":"A-Za-z0-9/\\_+=-","min":44,"max":8000,"open":true,"entropy":2}
{"kind":"keyword","provider":"Kraken access token","source":"gitleaks kraken-access-token","keywords":["kraken"],"values":[{"body":"A-Za-z0-9/=_+-","min":80,"max":90}]}
{"kind":"keyword","provider":"KuCoin access token or secret","source":"gitleaks kucoin-access-token, kucoin-secret-key","keywords":["kucoin"],"values":[{"body":"HEX","min":24,"max":24},{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]}
{"kind":"keyword","provider":"LaunchDarkly access token","source":"gitleaks launchdarkly-access-token","keywords":["launchdarkly"],"values":[{"body":"A-Za-z0-9=_-","min":40,"max":40}]}
{"kind":"prefixed","provider":"Linear API key","source":"gitleaks linear-api-key; secretlint linear","prefixes":["lin_api_"],"body":"W","min":32,"max":128,"entropy":2}
{"kind":"keyword","provider":"Linear client secret","source":"gitleaks linear-client-secret","keywords":["linear"],"values":[{"body":"HEX","min":32,"max":32}]}
{"kind":"keyword","provider":"LinkedIn client id or secret","source":"gitleaks linkedin-client-id, linkedin-client-secret","keywords":["linkedin","linked_in","linked-in"],"values":[{"body":"AN","min":14,"max":14},{"body":"AN","min":16,"max":16}]}
// 32 hex digits, '-us' and a data center's two digits.
{"kind":"prefixed","provider":"Mailchimp API key","source":"gitleaks mailchimp-api-key","prefixes":["-us"],"body":"DIGITS","min":2,"max":2,"anyCase":true,"entropy":3,"lead":{"min":32,"max":32,"body":"HEX"}}
{"kind":"prefixed","provider":"Mailgun private or public key","source":"gitleaks mailgun-private-api-token, mailgun-pub-key","prefixes":["key-","pubkey-"],"body":"HEX","min":32,"max":32,"anyCase":true,"entropy":3}
{"kind":"keyword","provider":"Mailgun webhook signing key","source":"gitleaks mailgun-signing-key","keywords":["mailgun"],"values":[{"body":"AND","min":50,"max":50,"shape":"/^[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}$/i"}]}
{"kind":"prefixed","provider":"Mapbox API token","source":"gitleaks mapbox-api-token","prefixes":["pk."],"body":"A-Za-z0-9.","min":83,"max":83,"anyCase":true,"shape":"/^[a-z0-9]{60}\\.[a-z0-9]{22}$/i","entropy":3}
{"kind":"keyword","provider":"Mattermost access token","source":"gitleaks mattermost-access-token","keywords":["mattermost"],"values":[{"body":"AN","min":26,"max":26}]}
{"kind":"prefixed","provider":"MaxMind license key","source":"gitleaks maxmind-license-key","prefixes":["_mmk"],"body":"AN","min":0,"max":0,"entropy":4,"lead":{"min":36,"max":36,"body":"W"}}
{"kind":"keyword","provider":"MessageBird API token or client id","source":"gitleaks messagebird-api-token, messagebird-client-id","keywords":["messagebird","message-bird","message_bird","message bird"],"values":[{"body":"AN","min":25,"max":25},{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]}
{"kind":"keyword","provider":"Netlify access token","source":"gitleaks netlify-access-token","keywords":["netlify"],"values":[{"body":"A-Za-z0-9=_-","min":40,"max":46}]}
{"kind":"prefixed","provider":"New Relic user API key","source":"gitleaks new-relic-user-api-key","prefixes":["NRAK-"],"body":"AN","min":27,"max":27,"anyCase":true}
{"kind":"prefixed","provider":"New Relic browser API token","source":"gitleaks new-relic-browser-api-token","prefixes":["NRJS-"],"body":"HEX","min":19,"max":19,"anyCase":true}
{"kind":"prefixed","provider":"New Relic insert key","source":"gitleaks new-relic-insert-key","prefixes":["NRII-"],"body":"AND","min":32,"max":32,"anyCase":true}
// A provider's name as prose writes it is a keyword too ('new relic', 'drone ci', 'sonarqube', 'sidekiq'), beside the rule set's own.
{"kind":"keyword","provider":"New Relic user API id","source":"gitleaks new-relic-user-api-id","keywords":["new-relic","newrelic","new_relic","new relic"],"values":[{"body":"AN","min":64,"max":64}]}
{"kind":"prefixed","provider":"Notion API token","source":"gitleaks notion-api-token; secretlint notion","prefixes":["ntn_"],"body":"AN","min":46,"max":46,"shape":"/^[0-9]{11}[A-Za-z0-9]{35}$/","entropy":4}
{"kind":"prefixed","provider":"npm access token","source":"gitleaks npm-access-token; secretlint npm","prefixes":["npm_"],"body":"AN","min":36,"max":36,"anyCase":true,"entropy":2}
{"kind":"keyword","provider":"New York Times access token","source":"gitleaks nytimes-access-token","keywords":["nytimes","new-york-times","newyorktimes","new york times"],"values":[{"body":"A-Za-z0-9=_-","min":32,"max":32}]}
{"kind":"prefixed","provider":"Octopus Deploy API key","source":"gitleaks octopus-deploy-api-key","prefixes":["API-"],"body":"UPN","min":26,"max":26,"entropy":3}
{"kind":"prefixed","provider":"Okta access token","source":"gitleaks okta-access-token","prefixes":["00"],"body":"A-Za-z0-9_=-","min":40,"max":40,"entropy":4}
// gitleaks and secretlint want the 'T3BlbkFJ' marker in the middle; any long run after these prefixes is taken.
{"kind":"prefixed","provider":"OpenAI API key","source":"gitleaks openai-api-key; secretlint openai","prefixes":["sk-proj-","sk-svcacct-","sk-admin-"],"body":"WD","min":32,"max":200,"open":true,"entropy":3}
{"kind":"prefixed","provider":"OpenAI API key (legacy)","source":"gitleaks openai-api-key; secretlint openai","prefixes":["sk-"],"body":"AN","min":40,"max":64,"open":true,"shape":"/[A-Z]/","entropy":3}
// SPEC.md names sk-: a run of 16 to 300 after it goes, whatever it holds, unless it is words joined by '-' (sk-learn-helpers).
{"kind":"prefixed","provider":"Any sk- key","source":"hark-memory (SPEC.md names sk-)","prefixes":["sk-"],"body":"WD","min":16,"max":300,"shape":"/^(?![a-z]+(?:-[a-z]+)+$)/"}
{"kind":"prefixed","provider":"OpenShift user token","source":"gitleaks openshift-user-token","prefixes":["sha256~"],"body":"WD","min":43,"max":43,"entropy":3.5}
{"kind":"prefixed","provider":"Perplexity API key","source":"gitleaks perplexity-api-key","prefixes":["pplx-"],"body":"AN","min":48,"max":48,"entropy":4}
{"kind":"keyword","provider":"Plaid client id or secret","source":"gitleaks plaid-client-id, plaid-secret-key","keywords":["plaid"],"values":[{"body":"AN","min":24,"max":24},{"body":"AN","min":30,"max":30}]}
{"kind":"prefixed","provider":"Plaid access token","source":"gitleaks plaid-api-token","prefixes":["access-sandbox-","access-development-","access-production-"],"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}
{"kind":"prefixed","provider":"PlanetScale token or password","source":"gitleaks planetscale-api-token, planetscale-oauth-token, planetscale-password","prefixes":["pscale_tkn_","pscale_oauth_","pscale_pw_"],"body":"WDOT","min":32,"max":64,"anyCase":true,"entropy":3}
{"kind":"prefixed","provider":"Postman API token","source":"gitleaks postman-api-token","prefixes":["PMAK-"],"body":"HEXD","min":59,"max":59,"shape":"/^[a-f0-9]{24}-[a-f0-9]{34}$/i","entropy":3}
{"kind":"prefixed","provider":"Prefect API token","source":"gitleaks prefect-api-token","prefixes":["pnu_"],"body":"AN","min":36,"max":36,"entropy":2}
{"kind":"keyword","provider":"Private AI API token","source":"gitleaks privateai-api-token","keywords":["privateai","private_ai","private-ai","private ai"],"values":[{"body":"AN","min":32,"max":32}]}
{"kind":"prefixed","provider":"Pulumi API token","source":"gitleaks pulumi-api-token","prefixes":["pul-"],"body":"HEX","min":40,"max":40,"entropy":2}
// gitleaks wants 'pypi-AgEIcHlwaS5vcmc' (the base64 of the macaroon's location); 'pypi-AgE' and a long run are taken.
{"kind":"prefixed","provider":"PyPI upload token","source":"gitleaks pypi-upload-token","prefixes":["pypi-AgE"],"body":"WD","min":50,"max":1000,"open":true,"entropy":3}
{"kind":"keyword","provider":"RapidAPI access token","source":"gitleaks rapidapi-access-token","keywords":["rapidapi"],"values":[{"body":"WD","min":50,"max":50}]}
{"kind":"prefixed","provider":"ReadMe API token","source":"gitleaks readme-api-token","prefixes":["rdme_"],"body":"a-z0-9","min":70,"max":70,"entropy":2}
{"kind":"prefixed","provider":"RubyGems API token","source":"gitleaks rubygems-api-token","prefixes":["rubygems_"],"body":"HEX","min":48,"max":48,"entropy":2}
{"kind":"prefixed","provider":"Scalingo API token","source":"gitleaks scalingo-api-token","prefixes":["tk-us-"],"body":"WD","min":48,"max":48,"entropy":2}
{"kind":"keyword","provider":"Sendbird access id or token","source":"gitleaks sendbird-access-id, sendbird-access-token","keywords":["sendbird"],"values":[{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"},{"body":"HEX","min":40,"max":40}]}
{"kind":"prefixed","provider":"SendGrid API token","source":"gitleaks sendgrid-api-token; secretlint sendgrid","prefixes":["SG."],"body":"WDOT","min":66,"max":66,"entropy":2}
{"kind":"prefixed","provider":"Sendinblue API token","source":"gitleaks sendinblue-api-token","prefixes":["xkeysib-"],"body":"AND","min":81,"max":81,"shape":"/^[a-f0-9]{64}-[a-z0-9]{16}$/i","entropy":2}
{"kind":"keyword","provider":"Sentry access token (old)","source":"gitleaks sentry-access-token","keywords":["sentry"],"values":[{"body":"HEX","min":64,"max":64}]}
{"kind":"prefixed","provider":"Sentry organization token","source":"gitleaks sentry-org-token","prefixes":["sntrys_eyJpYXQiO"],"body":"A-Za-z0-9+/=_","min":60,"max":500,"entropy":4.5}
{"kind":"prefixed","provider":"Sentry user token","source":"gitleaks sentry-user-token","prefixes":["sntryu_"],"body":"HEX","min":64,"max":64,"entropy":3.5}
{"kind":"prefixed","provider":"SettleMint access token","source":"gitleaks settlemint-application-access-token, -personal-, -service-","prefixes":["sm_aat_","sm_pat_","sm_sat_"],"body":"AN","min":16,"max":16,"entropy":3}
{"kind":"prefixed","provider":"Shippo API token","source":"gitleaks shippo-api-token","prefixes":["shippo_live_","shippo_test_"],"body":"HEX","min":40,"max":40,"entropy":2}
{"kind":"prefixed","provider":"Shopify token or shared secret","source":"gitleaks shopify-access-token, -custom-, -private-app-, -shared-secret; secretlint shopify","prefixes":["shpat_","shpca_","shppa_","shpss_"],"body":"AN","min":32,"max":64,"entropy":2}
{"kind":"prefixed","provider":"Slack app-level token","source":"gitleaks slack-app-token; secretlint slack","prefixes":["xapp-"],"body":"AND","min":20,"max":300,"anyCase":true,"shape":"/^\\d-[A-Z0-9]+-\\d+-[a-z0-9]+$|^\\d-[A-Z0-9]+(?:-[A-Z0-9]+){1,4}$/i","entropy":2}
{"kind":"prefixed","provider":"Slack bot token","source":"gitleaks slack-bot-token, slack-legacy-bot-token","prefixes":["xoxb-"],"body":"AND","min":20,"max":300,"shape":"/^[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*$|^[0-9]{8,14}-[a-zA-Z0-9]{18,26}$/","entropy":2}
{"kind":"prefixed","provider":"Slack configuration token","source":"gitleaks slack-config-access-token","prefixes":["xoxe.xoxb-","xoxe.xoxp-"],"body":"AND","min":165,"max":168,"anyCase":true,"shape":"/^\\d-[A-Z0-9]{163,166}$/i","entropy":2}
{"kind":"prefixed","provider":"Slack configuration refresh token","source":"gitleaks slack-config-refresh-token","prefixes":["xoxe-"],"body":"AND","min":148,"max":148,"anyCase":true,"shape":"/^\\d-[A-Z0-9]{146}$/i","entropy":2}
{"kind":"prefixed","provider":"Slack legacy token","source":"gitleaks slack-legacy-token","prefixes":["xoxo-","xoxs-"],"body":"AND","min":20,"max":300,"shape":"/^\\d+-\\d+-\\d+-[a-fA-F\\d]+$/","entropy":2}
// gitleaks: 'xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}', 'xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}'; secretlint slack takes
// any groups of letters and digits joined by '-'. Digits first (the team's id) and 20 characters at least keep file names and
// placeholders ('xoxo-indieweb-1.jpg', 'xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere') out.
{"kind":"prefixed","provider":"Slack legacy workspace token","source":"gitleaks slack-legacy-workspace-token; secretlint slack","prefixes":["xoxa-","xoxr-"],"body":"AND","min":8,"max":300,"shape":"/^(?:\\d-)?[0-9a-zA-Z]{8,48}$|^(?:\\d-)?\\d{5,}(?:-[a-zA-Z0-9]{1,40}){1,6}$/","entropy":2}
{"kind":"prefixed","provider":"Slack user token","source":"gitleaks slack-user-token; secretlint slack","prefixes":["xoxp-","xoxe-"],"body":"AND","min":20,"max":300,"shape":"/^(?:[0-9]{10,13}-){3}[a-zA-Z0-9-]{28,34}$|^\\d{5,}(?:-[a-zA-Z0-9]{1,40}){1,6}$/","entropy":2}
{"kind":"keyword","provider":"Snyk API token","source":"gitleaks snyk-api-token","keywords":["snyk"],"values":[{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]}
{"kind":"keyword","provider":"Sonar token","source":"gitleaks sonar-api-token","keywords":["sonar_token","sonar.token","sonar-token","sonar_login","sonar.login","sonartoken","sonar token","sonar login","sonarqube","sonarcloud"],"values":[{"body":"A-Za-z0-9=_-","min":40,"max":44,"shape":"/^(?:sq[apu]_)?[a-z0-9]{40}$/i"}]}
{"kind":"prefixed","provider":"Sonar token (prefixed)","source":"gitleaks sonar-api-token (value form)","prefixes":["squ_","sqp_","sqa_"],"body":"HEX","min":40,"max":40,"entropy":3}
{"kind":"prefixed","provider":"Sourcegraph access token","source":"gitleaks sourcegraph-access-token","prefixes":["sgp_"],"body":"W","min":40,"max":61,"shape":"/^(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}$|^[a-fA-F0-9]{40}$/","entropy":3}
{"kind":"keyword","provider":"Sourcegraph access token (bare)","source":"gitleaks sourcegraph-access-token","keywords":["sourcegraph"],"values":[{"body":"HEX","min":40,"max":40}]}
{"kind":"prefixed","provider":"Square access token","source":"gitleaks square-access-token","prefixes":["sq0atp-","EAAA"],"body":"WD","min":22,"max":60,"entropy":2}
{"kind":"keyword","provider":"Squarespace access token","source":"gitleaks squarespace-access-token","keywords":["squarespace"],"values":[{"body":"HEXD","min":36,"max":36,"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]}
{"kind":"prefixed","provider":"Stripe secret or restricted key","source":"gitleaks stripe-access-token; secretlint stripe","prefixes":["sk_live_","sk_test_","sk_prod_","rk_live_","rk_test_","rk_prod_"],"body":"AN","min":10,"max":99,"open":true,"entropy":2}
{"kind":"keyword","provider":"Sumo Logic access id or token","source":"gitleaks sumologic-access-id, sumologic-access-token","keywords":["sumo"],"values":[{"body":"AN","min":14,"max":14,"shape":"/^su/"},{"body":"AN","min":64,"max":64}]}
{"kind":"prefixed","provider":"Tailscale key","source":"secretlint tailscale","prefixes":["tskey-"],"body":"WD","min":28,"max":122,"shape":"/^[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}$/"}
// gitleaks: a bot id of 5 to 16 digits, ':A' and 34 more; Telegram's own documented example has 33.
{"kind":"prefixed","provider":"Telegram bot token","source":"gitleaks telegram-bot-api-token","prefixes":["0:A","1:A","2:A","3:A","4:A","5:A","6:A","7:A","8:A","9:A"],"body":"A-Za-z0-9_-","min":33,"max":34,"entropy":3,"lead":{"min":4,"max":15,"body":"DIGITS"}}
{"kind":"keyword","provider":"Travis CI access token","source":"gitleaks travisci-access-token","keywords":["travis"],"values":[{"body":"AN","min":22,"max":22}]}
{"kind":"prefixed","provider":"Twilio API key","source":"gitleaks twilio-api-key","prefixes":["SK"],"body":"HEX","min":32,"max":32,"entropy":3}
{"kind":"keyword","provider":"Twitch API token","source":"gitleaks twitch-api-token","keywords":["twitch"],"values":[{"body":"AN","min":30,"max":30}]}
{"kind":"keyword","provider":"Twitter key or secret","source":"gitleaks twitter-access-secret, -api-key, -api-secret","keywords":["twitter"],"values":[{"body":"AN","min":45,"max":45},{"body":"AN","min":25,"max":25},{"body":"AN","min":50,"max":50}]}
// A numeric id, '-' and a body (the access token); 22 'A' and a body (the bearer token): no word has either shape.
{"kind":"prefixed","provider":"Twitter access token","source":"gitleaks twitter-access-token","prefixes":["0-","1-","2-","3-","4-","5-","6-","7-","8-","9-"],"body":"AN","min":20,"max":40,"shape":"/[a-z]/i","entropy":3,"lead":{"min":14,"max":24,"body":"DIGITS"}}
{"kind":"prefixed","provider":"Twitter bearer token","source":"gitleaks twitter-bearer-token","prefixes":["AAAAAAAAAAAAAAAAAAAAAA"],"body":"A-Za-z0-9%","min":80,"max":100,"entropy":3}
{"kind":"prefixed","provider":"Typeform API token","source":"gitleaks typeform-api-token","prefixes":["tfp_"],"body":"WDOT","min":59,"max":59}
{"kind":"prefixed","provider":"HashiCorp Vault token","source":"gitleaks vault-service-token, vault-batch-token; secretlint hashicorp-vault","prefixes":["hvs.","hvr."],"body":"WD","min":90,"max":120,"entropy":3.5}
{"kind":"prefixed","provider":"HashiCorp Vault token (legacy)","source":"gitleaks vault-service-token","prefixes":["s."],"body":"AN","min":24,"max":24,"shape":"/\\d/","entropy":3.5}
{"kind":"prefixed","provider":"HashiCorp Vault batch token","source":"gitleaks vault-batch-token; secretlint hashicorp-vault","prefixes":["hvb."],"body":"WD","min":138,"max":300,"entropy":4}
{"kind":"prefixed","provider":"Vercel token","source":"secretlint vercel","prefixes":["vcp_","vci_","vca_","vcr_","vck_"],"body":"AN","min":20,"max":60}
{"kind":"prefixed","provider":"Yandex access token","source":"gitleaks yandex-access-token","prefixes":["t1."],"body":"WDOT","min":88,"max":300,"shape":"/^[\\w-]+=*\\.[\\w-]{86}=*$/","entropy":3}
{"kind":"prefixed","provider":"Yandex API key","source":"gitleaks yandex-api-key","prefixes":["AQVN"],"body":"WD","min":35,"max":38,"entropy":3}
{"kind":"prefixed","provider":"Yandex AWS access token","source":"gitleaks yandex-aws-access-token","prefixes":["YC"],"body":"WD","min":38,"max":38,"shape":"/^(?:\\D*\\d){3}/","entropy":3.5}
{"kind":"keyword","provider":"Zendesk secret key","source":"gitleaks zendesk-secret-key","keywords":["zendesk"],"values":[{"body":"AN","min":40,"max":40}]}
{"kind":"prefixed","provider":"Adyen API key","source":"gitleaks adyen-api-key","prefixes":["AQE"],"body":"A-Za-z0-9._=-","min":56,"max":200,"shape":"/^[a-z0-9]{5,}\\.[-a-zA-Z0-9_=]{50,80}$/","entropy":2}
{"kind":"keyword","provider":"AWS secret access key","source":"gitleaks aws-secret-access-key; secretlint aws","keywords":["aws","secret"],"values":[{"body":"B64","min":40,"max":40,"shape":"/^(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=\\D*\\d)(?![^=]*=+[^=])(?!(?:[a-z]*(?:[A-Z][a-z]+)*\\d*/)+[a-z]*(?:[A-Z][a-z]+)*\\d*$)/"}]}
{"kind":"prefixed","provider":"Braintree access token","source":"gitleaks braintree-access-token","prefixes":["access_token$production$","access_token$sandbox$"],"body":"AN","min":16,"max":16,"entropy":2}
{"kind":"prefixed","provider":"Braintree tokenization key","source":"gitleaks braintree-tokenization-key","prefixes":["production_","sandbox_"],"body":"W","min":25,"max":25,"shape":"/^(?=.*\\d)[a-z0-9]{8}_[a-z0-9]{16}$/i","entropy":3}
{"kind":"prefixed","provider":"Cast AI API key","source":"gitleaks castai-api-key","prefixes":["castai_v1_"],"body":"W","min":73,"max":73,"shape":"/^[A-Za-z0-9]{64}_[A-Za-z0-9]{8}$/","entropy":2}
{"kind":"prefixed","provider":"Chief Tools token","source":"gitleaks chieftools-pat, chieftools-access-token, chieftools-refresh-token","prefixes":["ctp_","cto_","ctr_"],"body":"AN","min":30,"max":248,"entropy":3}
{"kind":"prefixed","provider":"Claude Code session URL","source":"gitleaks claude-code-session-url","prefixes":["claude.ai/code/session_"],"body":"AN","min":16,"max":200,"anyCase":true,"open":true,"keep":true}
{"kind":"prefixed","provider":"LangSmith API key","source":"gitleaks langsmith-api-key","prefixes":["lsv2_pt_","lsv2_sk_"],"body":"W","min":43,"max":43,"shape":"/^[a-z0-9]{32}_[a-z0-9]{10}$/i","entropy":3}
{"kind":"prefixed","provider":"Lob API key","source":"gitleaks lob-api-key, lob-pub-api-key","prefixes":["live_","test_"],"body":"W","min":35,"max":35,"anyCase":true,"shape":"/^(?:pub_[a-f0-9]{31}|[a-f0-9]{35})$/i","entropy":3}
{"kind":"keyword","provider":"Looker client id or secret","source":"gitleaks looker-client-id, looker-client-secret","keywords":["looker"],"values":[{"body":"AN","min":20,"max":20},{"body":"AN","min":24,"max":24}]}
{"kind":"keyword","provider":"Sidekiq secret","source":"gitleaks sidekiq-secret","keywords":["bundle_enterprise__contribsys__com","bundle_gems__contribsys__com","sidekiq"],"values":[{"body":"a-f0-9:","min":17,"max":17,"shape":"/^[a-f0-9]{8}:[a-f0-9]{8}$/"}]}
// Webhook URLs whose path is the secret: the host and fixed path stay, the rest goes.
{"kind":"prefixed","provider":"Slack webhook URL","source":"gitleaks slack-webhook-url; secretlint slack","prefixes":["hooks.slack.com/services/","hooks.slack.com/workflows/","hooks.slack.com/triggers/"],"body":"A-Za-z0-9+/_-","min":1,"max":1000,"anyCase":true,"open":true,"keep":true}
{"kind":"prefixed","provider":"Microsoft Teams webhook URL","source":"gitleaks microsoft-teams-webhook","prefixes":["webhook.office.com/webhookb2/"],"body":"A-Za-z0-9/_@-","min":1,"max":1000,"anyCase":true,"open":true,"keep":true}
{"kind":"prefixed","provider":"Discord webhook URL","source":"hark-memory (Discord: /api/webhooks/)","prefixes":["discord.com/api/webhooks/","discordapp.com/api/webhooks/"],"body":"A-Za-z0-9/_-","min":1,"max":1000,"anyCase":true,"open":true,"keep":true}
// Widely pasted formats with no rule in either set, each with its provider's documented prefix.
{"kind":"prefixed","provider":"Stripe webhook signing secret","source":"hark-memory (Stripe docs: whsec_)","prefixes":["whsec_"],"body":"B64","min":24,"max":200,"open":true}
{"kind":"prefixed","provider":"Google OAuth client secret","source":"hark-memory (Google: GOCSPX-)","prefixes":["GOCSPX-"],"body":"WD","min":24,"max":40,"open":true}
{"kind":"prefixed","provider":"Google OAuth access token","source":"hark-memory (Google: ya29.)","prefixes":["ya29."],"body":"WD","min":20,"max":2048,"open":true}
{"kind":"prefixed","provider":"Square OAuth secret","source":"hark-memory (Square: sq0csp-)","prefixes":["sq0csp-"],"body":"WD","min":40,"max":60,"entropy":3}
{"kind":"prefixed","provider":"Supabase access token","source":"hark-memory (Supabase: sbp_)","prefixes":["sbp_"],"body":"HEX","min":40,"max":40,"entropy":3}
{"kind":"prefixed","provider":"Notion integration token (legacy)","source":"hark-memory (Notion: secret_)","prefixes":["secret_"],"body":"AN","min":43,"max":43,"entropy":4}
{"kind":"prefixed","provider":"xAI API key","source":"hark-memory (xAI: xai-)","prefixes":["xai-"],"body":"AN","min":60,"max":100,"entropy":4}
{"kind":"prefixed","provider":"Replicate API token","source":"hark-memory (Replicate: r8_)","prefixes":["r8_"],"body":"AN","min":37,"max":40,"entropy":4}
`
