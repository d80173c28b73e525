// The text "Business Data: New Request File" opens: one request of each interface and a chained one,
// written in the .http syntax REST Client and httpYac document, with what the extension adds said once.
export const REQUEST_FILE_TEMPLATE = `# Business Data request file: send any operation of the service with the signed-in account's token.
# Click "Send" above a request. The extension adds Authorization (a bearer token for Interface A, the
# raw token for Interface B) and Origin (Interface A): never write a token or a password here.
# Variables: {{baseUrl}} {{authUrl}} {{legacyUrl}} {{origin}} {{aVersion}} {{authVersion}} {{orgVersion}},
# your own "@name = value" lines, and {{$guid}} {{$timestamp}} {{$isoTimestamp}}.
# Save it as NAME.bizdata.http to keep it.

@ip = 203.0.113.7

### Interface A: who is behind an IP address
# @name ipLookup
GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip}}?view=standard
Accept: application/json

### Interface B: find an organization by name
# @name orgSearch
GET {{legacyUrl}}/{{orgVersion}}/organizations
    ?CountryISOAlpha2Code=GB
    &SubjectName=Acme%20Widgets%20Ltd
    &match=true
    &MatchTypeText=Advanced

### Chained: the organization the IP lookup above found (send ipLookup first)
# @interface b
GET {{legacyUrl}}/{{orgVersion}}/organizations
    ?CountryISOAlpha2Code={{ipLookup.response.body.$.matchCandidates[0].organization.countryISOAlpha2Code}}
    &SubjectName={{ipLookup.response.body.$.matchCandidates[0].organization.primaryName}}
    &match=true
    &MatchTypeText=Advanced
`;
