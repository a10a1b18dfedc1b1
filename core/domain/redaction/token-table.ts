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
 * A row, one a line (a line starting with `//` is a comment; JSON.parse reads the rows as one array):
 *   ["p", provider, source, prefix or [prefixes], alphabet, min, max, {anyCase, open, keep, shape, entropy, allow, lead: [n, alphabet]}?]
 *   ["k", provider, source, keyword or [keywords], [alphabet, min, max?, shape?], …more value forms]
 * An alphabet is written as in a character class (`A-Za-z0-9_-`) or by one of the names in ALPHABETS; a
 * shape or an allowlist is a regex literal in a string (`"/^[a-z]{2}$/i"`, backslashes doubled). So the table
 * is read in one step: any string of it that is one of ALPHABETS' names stands for that alphabet, and any that
 * starts with `/` is a regex (no provider, source, prefix or keyword is either: spec/core/token-formats.spec.ts).
 */
/** How far after a provider's name a keyword token's value may start (gitleaks allows about 30). */
export const KEYWORD_WINDOW = 48
/** Shape and entropy checks read at most this much of a candidate. */
export const CHECK_LIMIT = 512

/** An alphabet, written as in a character class: `A-Za-z0-9_-`. */
export type Alphabet = string

export const DIGITS = '0-9'

/** Alphabets the rows name (one string, as the table is: the engine reads it as a single literal). */
const ALPHABETS: Readonly<Record<string, Alphabet>> = JSON.parse(
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
  /** The token starts this many characters before its prefix, all of this alphabet (Azure's `…8Q~…`). */
  readonly lead?: { readonly n: number; readonly body: Alphabet }
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

type Row = ['p' | 'k', string, string, string | string[], ...unknown[]]

/** One row of TABLE, its alphabets and regexes read, as a format. */
function format([kind, provider, source, keys, ...rest]: Row): TokenFormat {
  if (kind === 'k') return { kind: 'keyword', provider, source, keywords: [keys].flat(), values: (rest as [string, number, number?, RegExp?][]).map(([body, min, max = min, shape]) => ({ body, min, max, shape })) }
  const [body, min, max, { lead, ...flags } = {}] = rest as [string, number, number, { lead?: [number, string] }?]
  return { kind: 'prefixed', provider, source, prefixes: [keys].flat(), body, min, max, ...flags, lead: lead && { n: lead[0], body: lead[1] } }
}

let formats: readonly TokenFormat[] | undefined

/** The formats, read from TABLE on the first call. */
export function tokenFormats(): readonly TokenFormat[] {
  const read = (_: string, v: unknown): unknown => (typeof v !== 'string' ? v : v[0] === '/' ? new RegExp(v.slice(1, v.lastIndexOf('/')), v.slice(v.lastIndexOf('/') + 1)) : (ALPHABETS[v] ?? v))
  formats ??= (JSON.parse(`[${TABLE.split('\n').filter((line) => line !== '' && !line.startsWith('//')).join(',')}]`, read) as Row[]).map(format)
  return formats
}

const TABLE = String.raw`
["p","1Password secret key","gitleaks 1password-secret-key","A3-","A-Z0-9-",36,37,{"shape":"/^[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}$/","entropy":3.8}]
["p","1Password service account token","gitleaks 1password-service-account-token; secretlint 1password","ops_eyJ","B64",100,4000,{"open":true,"entropy":4}]
["k","Adafruit API key","gitleaks adafruit-api-key","adafruit",["WD",32]]
["k","Adobe client id","gitleaks adobe-client-id","adobe",["HEX",32]]
["p","Adobe client secret","gitleaks adobe-client-secret","p8e-","AN",32,32,{"entropy":2}]
["p","age secret key","gitleaks age-secret-key","AGE-SECRET-KEY-1","UPN",58,58]
["k","Airtable API key","gitleaks airtable-api-key","airtable",["AN",17]]
["k","Algolia API key","gitleaks algolia-api-key","algolia",["AN",32]]
["p","Alibaba Cloud AccessKey id","gitleaks alibaba-access-key-id","LTAI","AN",20,20,{"entropy":2}]
["k","Alibaba Cloud secret key","gitleaks alibaba-secret-key","alibaba",["AN",30]]
// gitleaks and secretlint want 93 characters then 'AA'; any run this long after 'sk-ant-' is taken.
["p","Anthropic API or admin key","gitleaks anthropic-api-key, anthropic-admin-api-key; secretlint anthropic","sk-ant-","WD",32,200,{"open":true,"entropy":3}]
["p","Artifactory API key","gitleaks artifactory-api-key","AKCp","AN",69,69,{"entropy":4.5}]
["p","Artifactory reference token","gitleaks artifactory-reference-token","cmVmd","AN",59,59,{"entropy":4.5}]
["k","Asana client id or secret","gitleaks asana-client-id, asana-client-secret","asana",["DIGITS",16],["AN",32]]
["p","Atlassian API token","gitleaks atlassian-api-token","ATATT3","WDOT",150,250,{"entropy":3.5}]
["k","Atlassian API token (legacy)","gitleaks atlassian-api-token",["atlassian","confluence","jira"],["AN",24,24,"/^[a-zA-Z0-9]{20}[a-fA-F0-9]{4}$/"]]
["p","Authress service client key","gitleaks authress-service-client-access-key",["sc_","ext_","scauth_","authress_"],"A-Za-z0-9_.+/=-",50,200,{"shape":"/^[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120}$/i"}]
["p","AWS access key id","gitleaks aws-access-token; secretlint aws",["AKIA","ASIA","ABIA","ACCA","AGPA","AIDA","AROA","AIPA","ANPA","ANVA"],"UPN",16,16,{"entropy":3,"allow":"/EXAMPLE$/"}]
["p","AWS access key id (A3T)","gitleaks aws-access-token","A3T","UPN",17,17,{"entropy":3,"allow":"/EXAMPLE$/"}]
["p","Azure AD client secret","gitleaks azure-ad-client-secret","Q~","A-Za-z0-9_~.-",31,34,{"entropy":3,"lead":[4,"A-Za-z0-9_~."]}]
["k","Beamer API token","gitleaks beamer-api-token","beamer",["WDOT",46,46,"/^b_/"]]
["k","Bitbucket client id or secret","gitleaks bitbucket-client-id, bitbucket-client-secret","bitbucket",["AN",32],["A-Za-z0-9=_-",64]]
["k","Bittrex access or secret key","gitleaks bittrex-access-key, bittrex-secret-key","bittrex",["AN",32]]
["k","Cisco Meraki API key","gitleaks cisco-meraki-api-key","meraki",["HEX",40]]
["p","ClickHouse Cloud API secret","gitleaks clickhouse-cloud-api-secret-key","4b1d","AN",38,38,{"entropy":3}]
["p","Clojars API token","gitleaks clojars-api-token","CLOJARS_","AN",60,60,{"anyCase":true,"open":true,"entropy":2}]
["k","Cloudflare API key","gitleaks cloudflare-api-key, cloudflare-global-api-key","cloudflare",["WD",40],["HEX",37]]
["p","Cloudflare API token","secretlint cloudflare",["cfk_","cfut_","cfat_"],"AN",48,48,{"shape":"/^[A-Za-z0-9]{40}[0-9a-f]{8}$/"}]
["p","Cloudflare Origin CA key","gitleaks cloudflare-origin-ca-key","v1.0-","HEXD",171,171,{"shape":"/^[a-f0-9]{24}-[a-f0-9]{146}$/","entropy":2}]
["k","Codecov access token","gitleaks codecov-access-token","codecov",["AN",32]]
["k","Cohere API token","gitleaks cohere-api-token",["cohere","co_api_key"],["AN",40]]
["k","Coinbase access token","gitleaks coinbase-access-token","coinbase",["WD",64]]
["k","Confluent access token or secret","gitleaks confluent-access-token, confluent-secret-key","confluent",["AN",16],["AN",64]]
["k","Contentful delivery token","gitleaks contentful-delivery-api-token","contentful",["A-Za-z0-9=_-",43]]
["p","Databricks API token","gitleaks databricks-api-token; secretlint databricks","dapi","HEXD",32,34,{"shape":"/^[a-fA-F0-9]{32}(?:-\\d)?$/","entropy":3}]
["k","Datadog access token","gitleaks datadog-access-token","datadog",["AN",40]]
["p","Defined Networking API token","gitleaks defined-networking-api-token","dnkey-","A-Za-z0-9=_-",79,79]
["p","DigitalOcean token","gitleaks digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token",["dop_v1_","doo_v1_","dor_v1_"],"HEX",64,64,{"anyCase":true,"entropy":3}]
["k","Discord API token, client id or secret","gitleaks discord-api-token, discord-client-id, discord-client-secret","discord",["HEX",64],["DIGITS",18],["A-Za-z0-9=_-",32]]
["p","Docker Hub personal access token","secretlint docker","dckr_pat_","WD",27,27]
["p","Doppler API token","gitleaks doppler-api-token","dp.pt.","AN",43,43,{"entropy":2}]
["k","Drone CI access token","gitleaks droneci-access-token","droneci",["AN",32]]
["k","Dropbox API token","gitleaks dropbox-api-token, dropbox-long-lived-api-token, dropbox-short-lived-api-token","dropbox",["AN",15],["A-Za-z0-9=_-",64,64,"/^[a-z0-9]{11}AAAAAAAAAA/i"],["A-Za-z0-9=_.-",138,138,"/^sl\\./"]]
["p","Duffel API token","gitleaks duffel-api-token",["duffel_test_","duffel_live_"],"A-Za-z0-9_=-",43,43,{"entropy":2}]
["p","Dynatrace API token","gitleaks dynatrace-api-token","dt0c01.","A-Za-z0-9.",89,89,{"shape":"/^[a-z0-9]{24}\\.[a-z0-9]{64}$/i","entropy":4}]
["p","EasyPost API token","gitleaks easypost-api-token, easypost-test-api-token",["EZAK","EZTK"],"AN",54,54,{"entropy":2}]
["k","Etsy access token","gitleaks etsy-access-token","etsy",["AN",24]]
["p","Facebook page access token","gitleaks facebook-page-access-token",["EAAM","EAAC"],"AN",100,4000,{"open":true,"entropy":4}]
["k","Facebook secret or access token","gitleaks facebook-secret, facebook-access-token","facebook",["HEX",32],["0-9a-zA-Z|%_-",43,57,"/^\\d{15,16}[|%][0-9a-z_-]{27,40}$/i"]]
["k","Fastly API token","gitleaks fastly-api-token","fastly",["A-Za-z0-9=_-",32]]
["p","Figma personal access token","secretlint figma","figd_","WD",40,200]
["k","Finicity API token or secret","gitleaks finicity-api-token, finicity-client-secret","finicity",["HEX",32],["AN",20]]
["k","Finnhub access token","gitleaks finnhub-access-token","finnhub",["AN",20]]
["k","Flickr access token","gitleaks flickr-access-token","flickr",["AN",32]]
["p","Flutterwave key","gitleaks flutterwave-encryption-key, flutterwave-secret-key, flutterwave-public-key",["FLWSECK_TEST-","FLWPUBK_TEST-"],"AND",12,34,{"shape":"/^[a-h0-9]{12}$|^[a-h0-9]{32}-X$/i","entropy":2}]
["p","Fly.io access token","gitleaks flyio-access-token","fo1_","WD",43,43,{"entropy":4}]
["p","Fly.io macaroon token","gitleaks flyio-access-token",["fm1a_","fm1r_","fm2_"],"B64",100,4000,{"open":true,"entropy":4}]
["p","Frame.io API token","gitleaks frameio-api-token","fio-u-","A-Za-z0-9_=-",64,64]
["k","FreshBooks access token","gitleaks freshbooks-access-token","freshbooks",["AN",64]]
["p","Google API key","gitleaks gcp-api-key","AIza","WD",35,35,{"entropy":4}]
["p","GitHub token","gitleaks github-pat, github-oauth, github-app-token, github-refresh-token; secretlint github",["ghp_","gho_","ghu_","ghs_","ghr_"],"AN",36,36,{"open":true,"entropy":3}]
["p","GitHub fine-grained token","gitleaks github-fine-grained-pat; secretlint github","github_pat_","W",82,82,{"open":true,"entropy":3}]
["k","Gitter access token","gitleaks gitter-access-token","gitter",["WD",40]]
["p","GitLab CI/CD job token","gitleaks gitlab-cicd-job-token","glcbt-","WD",22,26,{"shape":"/^[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}$/","entropy":3}]
["p","GitLab token","gitleaks gitlab-deploy-token, gitlab-feature-flag-client-token, gitlab-feed-token, gitlab-runner-authentication-token, gitlab-scim-token",["gldt-","glffct-","glft-","glsoat-"],"WD",20,20,{"open":true,"entropy":3}]
["p","GitLab runner authentication token","gitleaks gitlab-runner-authentication-token, -routable","glrt-","WDOT",20,310,{"shape":"/^[\\w-]{20}$|^t\\d_[\\w-]{27,300}\\.[0-9a-z]{9}$/","entropy":3}]
["p","GitLab personal access token","gitleaks gitlab-pat, gitlab-pat-routable; secretlint gitlab","glpat-","WDOT",20,310,{"shape":"/^[\\w-]{20,128}$|^[\\w-]{27,300}\\.[0-9a-z]{9}$/","entropy":3}]
["p","GitLab incoming mail token","gitleaks gitlab-incoming-mail-token","glimt-","WD",25,25,{"open":true,"entropy":3}]
["p","GitLab Kubernetes agent token","gitleaks gitlab-kubernetes-agent-token","glagent-","WD",50,50,{"open":true,"entropy":3}]
["p","GitLab OIDC application secret","gitleaks gitlab-oauth-app-secret","gloas-","WD",64,64,{"open":true,"entropy":3}]
["p","GitLab pipeline trigger token","gitleaks gitlab-ptt","glptt-","HEX",40,40,{"open":true,"entropy":3}]
["p","GitLab runner registration token","gitleaks gitlab-rrt","GR1348941","WD",20,20,{"open":true,"entropy":3}]
["p","GitLab session cookie","gitleaks gitlab-session-cookie","_gitlab_session=","a-z0-9",32,32,{"open":true,"entropy":3}]
["k","GoCardless API token","gitleaks gocardless-api-token","gocardless",["A-Za-z0-9_=-",45,45,"/^live_/i"]]
["p","Grafana API key","gitleaks grafana-api-key","eyJrIjoi","B64",70,400,{"anyCase":true,"entropy":3}]
["p","Grafana Cloud API token","gitleaks grafana-cloud-api-token; secretlint grafana","glc_","B64",32,403,{"anyCase":true,"entropy":3}]
["p","Grafana service account token","gitleaks grafana-service-account-token; secretlint grafana","glsa_","W",41,41,{"anyCase":true,"shape":"/^[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}$/","entropy":3}]
["p","Groq API key","secretlint groq","gsk_","AN",52,52]
["p","Harness access token","gitleaks harness-api-key",["pat.","sat."],"A-Za-z0-9_.-",68,68,{"shape":"/^[a-zA-Z0-9_-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}$/"}]
["p","HashiCorp Terraform API token","gitleaks hashicorp-tf-api-token",".atlasv1.","A-Za-z0-9=_-",60,70,{"entropy":3.5,"lead":[14,"AN"]}]
["k","Heroku API key","gitleaks heroku-api-key","heroku",["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"]]
["p","Heroku API key (v2)","gitleaks heroku-api-key-v2","HRKU-AA","WD",58,58,{"entropy":4}]
["k","HubSpot API key","gitleaks hubspot-api-key","hubspot",["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"]]
// gitleaks and secretlint: 34 letters; digits are allowed here too, the length still exact.
["p","Hugging Face access token","gitleaks huggingface-access-token; secretlint huggingface","hf_","AN",34,34,{"entropy":2}]
["p","Hugging Face organization token","gitleaks huggingface-organization-api-token","api_org_","AN",34,34,{"entropy":2}]
["p","Infracost API token","gitleaks infracost-api-token","ico-","AN",32,32,{"entropy":3}]
["k","Intercom API key","gitleaks intercom-api-key","intercom",["A-Za-z0-9=_-",60]]
["p","Intra42 client secret","gitleaks intra42-client-secret",["s-s4t2ud-","s-s4t2af-"],"HEX",64,64,{"entropy":3}]
["k","JFrog API key or identity token","gitleaks jfrog-api-key, jfrog-identity-token",["jfrog","artifactory","bintray","xray"],["AN",73],["AN",64]]
// gitleaks: 'ey', 17 or more letters and digits, '.ey' and the payload (any JSON header, not only '{"' as 'eyJ').
["p","JSON Web Token","gitleaks jwt","ey","A-Za-z0-9_./\\=+-",37,8000,{"open":true,"shape":"/^[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9/\\\\_-]{17,}\\.?/","entropy":3}]
["p","JSON Web Token, base64","gitleaks jwt-base64","ZXlK","A-Za-z0-9/\\_+=-",44,8000,{"open":true,"entropy":2}]
["k","Kraken access token","gitleaks kraken-access-token","kraken",["A-Za-z0-9/=_+-",80,90]]
["k","KuCoin access token or secret","gitleaks kucoin-access-token, kucoin-secret-key","kucoin",["HEX",24],["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"]]
["k","LaunchDarkly access token","gitleaks launchdarkly-access-token","launchdarkly",["A-Za-z0-9=_-",40]]
["p","Linear API key","gitleaks linear-api-key; secretlint linear","lin_api_","W",32,128,{"entropy":2}]
["k","Linear client secret","gitleaks linear-client-secret","linear",["HEX",32]]
["k","LinkedIn client id or secret","gitleaks linkedin-client-id, linkedin-client-secret",["linkedin","linked_in","linked-in"],["AN",14],["AN",16]]
["k","Mailchimp API key","gitleaks mailchimp-api-key","mailchimp",["AND",37,37,"/^[a-f0-9]{32}-us\\d\\d$/i"]]
["k","Mailgun key","gitleaks mailgun-private-api-token, mailgun-pub-key, mailgun-signing-key","mailgun",["AND",36,39,"/^(?:key|pubkey)-[a-f0-9]{32}$/i"],["AND",50,50,"/^[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}$/i"]]
["k","Mapbox API token","gitleaks mapbox-api-token","mapbox",["A-Za-z0-9.",86,86,"/^pk\\.[a-z0-9]{60}\\.[a-z0-9]{22}$/i"]]
["k","Mattermost access token","gitleaks mattermost-access-token","mattermost",["AN",26]]
["p","MaxMind license key","gitleaks maxmind-license-key","_mmk","AN",0,0,{"entropy":4,"lead":[36,"W"]}]
["k","MessageBird API token or client id","gitleaks messagebird-api-token, messagebird-client-id",["messagebird","message-bird","message_bird"],["AN",25],["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"]]
["k","Netlify access token","gitleaks netlify-access-token","netlify",["A-Za-z0-9=_-",40,46]]
["p","New Relic user API key","gitleaks new-relic-user-api-key","NRAK-","AN",27,27,{"anyCase":true}]
["p","New Relic browser API token","gitleaks new-relic-browser-api-token","NRJS-","HEX",19,19,{"anyCase":true}]
["p","New Relic insert key","gitleaks new-relic-insert-key","NRII-","AND",32,32,{"anyCase":true}]
["k","New Relic user API id","gitleaks new-relic-user-api-id",["new-relic","newrelic","new_relic"],["AN",64]]
["p","Notion API token","gitleaks notion-api-token; secretlint notion","ntn_","AN",46,46,{"shape":"/^[0-9]{11}[A-Za-z0-9]{35}$/","entropy":4}]
["p","npm access token","gitleaks npm-access-token; secretlint npm","npm_","AN",36,36,{"anyCase":true,"entropy":2}]
["k","New York Times access token","gitleaks nytimes-access-token",["nytimes","new-york-times","newyorktimes"],["A-Za-z0-9=_-",32]]
["p","Octopus Deploy API key","gitleaks octopus-deploy-api-key","API-","UPN",26,26,{"entropy":3}]
["k","Okta access token","gitleaks okta-access-token","okta",["A-Za-z0-9_=-",42,42,"/^00/"]]
// gitleaks and secretlint want the 'T3BlbkFJ' marker in the middle; any long run after these prefixes is taken.
["p","OpenAI API key","gitleaks openai-api-key; secretlint openai",["sk-proj-","sk-svcacct-","sk-admin-"],"WD",32,200,{"open":true,"entropy":3}]
["p","OpenAI API key (legacy)","gitleaks openai-api-key; secretlint openai","sk-","AN",40,64,{"open":true,"shape":"/[A-Z]/","entropy":3}]
["p","OpenShift user token","gitleaks openshift-user-token","sha256~","WD",43,43,{"entropy":3.5}]
["p","Perplexity API key","gitleaks perplexity-api-key","pplx-","AN",48,48,{"entropy":4}]
["k","Plaid client id or secret","gitleaks plaid-client-id, plaid-secret-key","plaid",["AN",24],["AN",30]]
["p","Plaid access token","gitleaks plaid-api-token",["access-sandbox-","access-development-","access-production-"],"HEXD",36,36,{"shape":"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"}]
["p","PlanetScale token or password","gitleaks planetscale-api-token, planetscale-oauth-token, planetscale-password",["pscale_tkn_","pscale_oauth_","pscale_pw_"],"WDOT",32,64,{"anyCase":true,"entropy":3}]
["p","Postman API token","gitleaks postman-api-token","PMAK-","HEXD",59,59,{"shape":"/^[a-f0-9]{24}-[a-f0-9]{34}$/i","entropy":3}]
["p","Prefect API token","gitleaks prefect-api-token","pnu_","AN",36,36,{"entropy":2}]
["k","Private AI API token","gitleaks privateai-api-token",["privateai","private_ai","private-ai"],["AN",32]]
["p","Pulumi API token","gitleaks pulumi-api-token","pul-","HEX",40,40,{"entropy":2}]
// gitleaks wants 'pypi-AgEIcHlwaS5vcmc' (the base64 of the macaroon's location); 'pypi-AgE' and a long run are taken.
["p","PyPI upload token","gitleaks pypi-upload-token","pypi-AgE","WD",50,1000,{"open":true,"entropy":3}]
["k","RapidAPI access token","gitleaks rapidapi-access-token","rapidapi",["WD",50]]
["p","ReadMe API token","gitleaks readme-api-token","rdme_","a-z0-9",70,70,{"entropy":2}]
["p","RubyGems API token","gitleaks rubygems-api-token","rubygems_","HEX",48,48,{"entropy":2}]
["p","Scalingo API token","gitleaks scalingo-api-token","tk-us-","WD",48,48,{"entropy":2}]
["k","Sendbird access id or token","gitleaks sendbird-access-id, sendbird-access-token","sendbird",["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"],["HEX",40]]
["p","SendGrid API token","gitleaks sendgrid-api-token; secretlint sendgrid","SG.","WDOT",66,66,{"entropy":2}]
["p","Sendinblue API token","gitleaks sendinblue-api-token","xkeysib-","AND",81,81,{"shape":"/^[a-f0-9]{64}-[a-z0-9]{16}$/i","entropy":2}]
["k","Sentry access token (old)","gitleaks sentry-access-token","sentry",["HEX",64]]
["p","Sentry organization token","gitleaks sentry-org-token","sntrys_eyJpYXQiO","A-Za-z0-9+/=_",60,500,{"entropy":4.5}]
["p","Sentry user token","gitleaks sentry-user-token","sntryu_","HEX",64,64,{"entropy":3.5}]
["p","SettleMint access token","gitleaks settlemint-application-access-token, -personal-, -service-",["sm_aat_","sm_pat_","sm_sat_"],"AN",16,16,{"entropy":3}]
["p","Shippo API token","gitleaks shippo-api-token",["shippo_live_","shippo_test_"],"HEX",40,40,{"entropy":2}]
["p","Shopify token or shared secret","gitleaks shopify-access-token, -custom-, -private-app-, -shared-secret; secretlint shopify",["shpat_","shpca_","shppa_","shpss_"],"AN",32,64,{"entropy":2}]
["p","Slack app-level token","gitleaks slack-app-token; secretlint slack","xapp-","AND",20,300,{"anyCase":true,"shape":"/^\\d-[A-Z0-9]+-\\d+-[a-z0-9]+$|^\\d-[A-Z0-9]+(?:-[A-Z0-9]+){1,4}$/i","entropy":2}]
["p","Slack bot token","gitleaks slack-bot-token, slack-legacy-bot-token","xoxb-","AND",20,300,{"shape":"/^[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*$|^[0-9]{8,14}-[a-zA-Z0-9]{18,26}$/","entropy":2}]
["p","Slack configuration token","gitleaks slack-config-access-token",["xoxe.xoxb-","xoxe.xoxp-"],"AND",165,168,{"anyCase":true,"shape":"/^\\d-[A-Z0-9]{163,166}$/i","entropy":2}]
["p","Slack configuration refresh token","gitleaks slack-config-refresh-token","xoxe-","AND",148,148,{"anyCase":true,"shape":"/^\\d-[A-Z0-9]{146}$/i","entropy":2}]
["p","Slack legacy token","gitleaks slack-legacy-token",["xoxo-","xoxs-"],"AND",20,300,{"shape":"/^\\d+-\\d+-\\d+-[a-fA-F\\d]+$/","entropy":2}]
// gitleaks: 'xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}', 'xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}'; secretlint slack takes
// any groups of letters and digits joined by '-'. Digits first (the team's id) and 20 characters at least keep file names and
// placeholders ('xoxo-indieweb-1.jpg', 'xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere') out.
["p","Slack legacy workspace token","gitleaks slack-legacy-workspace-token; secretlint slack",["xoxa-","xoxr-"],"AND",8,300,{"shape":"/^(?:\\d-)?[0-9a-zA-Z]{8,48}$|^(?:\\d-)?\\d{5,}(?:-[a-zA-Z0-9]{1,40}){1,6}$/","entropy":2}]
["p","Slack user token","gitleaks slack-user-token; secretlint slack",["xoxp-","xoxe-"],"AND",20,300,{"shape":"/^(?:[0-9]{10,13}-){3}[a-zA-Z0-9-]{28,34}$|^\\d{5,}(?:-[a-zA-Z0-9]{1,40}){1,6}$/","entropy":2}]
["k","Snyk API token","gitleaks snyk-api-token","snyk",["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"]]
["k","Sonar token","gitleaks sonar-api-token",["sonar_token","sonar.token","sonar-token","sonar_login","sonar.login","sonartoken","sonar token","sonar login"],["A-Za-z0-9=_-",40,44,"/^(?:sq[apu]_)?[a-z0-9]{40}$/i"]]
["p","Sonar token (prefixed)","gitleaks sonar-api-token (value form)",["squ_","sqp_","sqa_"],"HEX",40,40,{"entropy":3}]
["p","Sourcegraph access token","gitleaks sourcegraph-access-token","sgp_","W",40,61,{"shape":"/^(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}$|^[a-fA-F0-9]{40}$/","entropy":3}]
["k","Sourcegraph access token (bare)","gitleaks sourcegraph-access-token","sourcegraph",["HEX",40]]
["p","Square access token","gitleaks square-access-token",["sq0atp-","EAAA"],"WD",22,60,{"entropy":2}]
["k","Squarespace access token","gitleaks squarespace-access-token","squarespace",["HEXD",36,36,"/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/"]]
["p","Stripe secret or restricted key","gitleaks stripe-access-token; secretlint stripe",["sk_live_","sk_test_","sk_prod_","rk_live_","rk_test_","rk_prod_"],"AN",10,99,{"open":true,"entropy":2}]
["k","Sumo Logic access id or token","gitleaks sumologic-access-id, sumologic-access-token","sumo",["AN",14,14,"/^su/"],["AN",64]]
["p","Tailscale key","secretlint tailscale","tskey-","WD",28,122,{"shape":"/^[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}$/"}]
["k","Telegram bot token","gitleaks telegram-bot-api-token","telegr",["A-Za-z0-9_:-",40,51,"/^[0-9]{5,16}:A[a-z0-9_-]{34}$/i"]]
["k","Travis CI access token","gitleaks travisci-access-token","travis",["AN",22]]
["p","Twilio API key","gitleaks twilio-api-key","SK","HEX",32,32,{"entropy":3}]
["k","Twitch API token","gitleaks twitch-api-token","twitch",["AN",30]]
["k","Twitter token, key or secret","gitleaks twitter-access-secret, -access-token, -api-key, -api-secret, -bearer-token","twitter",["AN",45],["AN",25],["AN",50],["AND",36,66,"/^[0-9]{15,25}-[a-zA-Z0-9]{20,40}$/"],["A-Za-z0-9%",102,122,"/^A{22}/"]]
["p","Typeform API token","gitleaks typeform-api-token","tfp_","WDOT",59,59]
["p","HashiCorp Vault token","gitleaks vault-service-token, vault-batch-token; secretlint hashicorp-vault",["hvs.","hvr."],"WD",90,120,{"entropy":3.5}]
["p","HashiCorp Vault token (legacy)","gitleaks vault-service-token","s.","AN",24,24,{"shape":"/\\d/","entropy":3.5}]
["p","HashiCorp Vault batch token","gitleaks vault-batch-token; secretlint hashicorp-vault","hvb.","WD",138,300,{"entropy":4}]
["p","Vercel token","secretlint vercel",["vcp_","vci_","vca_","vcr_","vck_"],"AN",20,60]
["k","Yandex token or key","gitleaks yandex-access-token, yandex-api-key, yandex-aws-access-token","yandex",["WDOT",90,200,"/^t1\\.[\\w-]+=*\\.[\\w-]{86}=*$/"],["WD",39,42,"/^AQVN/"],["WD",40,40,"/^YC/"]]
["k","Zendesk secret key","gitleaks zendesk-secret-key","zendesk",["AN",40]]
["p","Adyen API key","gitleaks adyen-api-key","AQE","A-Za-z0-9._=-",56,200,{"shape":"/^[a-z0-9]{5,}\\.[-a-zA-Z0-9_=]{50,80}$/","entropy":2}]
["k","AWS secret access key","gitleaks aws-secret-access-key; secretlint aws",["aws","secret"],["B64",40,40,"/^(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=\\D*\\d)(?![^=]*=+[^=])(?!(?:[a-z]*(?:[A-Z][a-z]+)*\\d*\/)+[a-z]*(?:[A-Z][a-z]+)*\\d*$)/"]]
["p","Braintree access token","gitleaks braintree-access-token",["access_token$production$","access_token$sandbox$"],"AN",16,16,{"entropy":2}]
["p","Braintree tokenization key","gitleaks braintree-tokenization-key",["production_","sandbox_"],"W",25,25,{"shape":"/^(?=.*\\d)[a-z0-9]{8}_[a-z0-9]{16}$/i","entropy":3}]
["p","Cast AI API key","gitleaks castai-api-key","castai_v1_","W",73,73,{"shape":"/^[A-Za-z0-9]{64}_[A-Za-z0-9]{8}$/","entropy":2}]
["p","Chief Tools token","gitleaks chieftools-pat, chieftools-access-token, chieftools-refresh-token",["ctp_","cto_","ctr_"],"AN",30,248,{"entropy":3}]
["p","Claude Code session URL","gitleaks claude-code-session-url","claude.ai/code/session_","AN",16,200,{"anyCase":true,"open":true,"keep":true}]
["p","LangSmith API key","gitleaks langsmith-api-key",["lsv2_pt_","lsv2_sk_"],"W",43,43,{"shape":"/^[a-z0-9]{32}_[a-z0-9]{10}$/i","entropy":3}]
["k","Lob API key","gitleaks lob-api-key, lob-pub-api-key","lob",["W",40,40,"/^(?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35})$/i"]]
["k","Looker client id or secret","gitleaks looker-client-id, looker-client-secret","looker",["AN",20],["AN",24]]
["k","Sidekiq secret","gitleaks sidekiq-secret",["bundle_enterprise__contribsys__com","bundle_gems__contribsys__com"],["a-f0-9:",17,17,"/^[a-f0-9]{8}:[a-f0-9]{8}$/"]]
// Webhook URLs whose path is the secret: the host and fixed path stay, the rest goes.
["p","Slack webhook URL","gitleaks slack-webhook-url; secretlint slack",["hooks.slack.com/services/","hooks.slack.com/workflows/","hooks.slack.com/triggers/"],"A-Za-z0-9+/_-",1,1000,{"anyCase":true,"open":true,"keep":true}]
["p","Microsoft Teams webhook URL","gitleaks microsoft-teams-webhook","webhook.office.com/webhookb2/","A-Za-z0-9/_@-",1,1000,{"anyCase":true,"open":true,"keep":true}]
["p","Discord webhook URL","hark-memory (Discord: /api/webhooks/)",["discord.com/api/webhooks/","discordapp.com/api/webhooks/"],"A-Za-z0-9/_-",1,1000,{"anyCase":true,"open":true,"keep":true}]
// Kept from the earlier hand-written list: widely pasted formats with no rule in either set, each with its provider's documented prefix.
["p","Stripe webhook signing secret","hark-memory (Stripe docs: whsec_)","whsec_","B64",24,200,{"open":true}]
["p","Google OAuth client secret","hark-memory (Google: GOCSPX-)","GOCSPX-","WD",24,40,{"open":true}]
["p","Google OAuth access token","hark-memory (Google: ya29.)","ya29.","WD",20,2048,{"open":true}]
["p","Square OAuth secret","hark-memory (Square: sq0csp-)","sq0csp-","WD",40,60,{"entropy":3}]
["p","Supabase access token","hark-memory (Supabase: sbp_)","sbp_","HEX",40,40,{"entropy":3}]
["p","Notion integration token (legacy)","hark-memory (Notion: secret_)","secret_","AN",43,43,{"entropy":4}]
["p","Mailgun API key (legacy)","hark-memory (Mailgun: key-)","key-","HEX",32,32,{"entropy":3}]
["p","xAI API key","hark-memory (xAI: xai-)","xai-","AN",60,100,{"entropy":4}]
["p","Replicate API token","hark-memory (Replicate: r8_)","r8_","AN",37,40,{"entropy":4}]
`
