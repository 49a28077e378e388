"""The English indicator table the injection scanner matches, and the data it shares.

Everything here is data. ``scanner.py`` compiles it once, on first use, into RE2 sets
(one linear-time pass per kind tells which patterns occur) plus one regex per pattern
(run only for the patterns that occurred, to get the spans). The kinds and the
``Indicator`` type are in ``kinds.py``; the other languages' phrases in ``phrases.py``.

Patterns are RE2 syntax: no look-arounds and no back-references, so matching is linear
in the input whatever the text. Each carries its own flags (``(?i)`` case-insensitive,
``(?m)`` line anchors); ``\\b`` is an ASCII word boundary. Unbounded gaps are written
``*`` rather than ``{0,120}``: a bounded gap after a word multiplies the automaton's
states, an unbounded one does not.

Severities weigh a finding (see ``scanner.is_injection``): a ``high`` finding alone is
an injection, ``medium`` ones need a second, different kind. ``low`` marks what is
worth showing but ordinary in real files (``rm -rf`` in a README, a ``<!-- run -->``
comment) — it only counts next to something stronger.
"""

from __future__ import annotations

from .kinds import HIGH, KIND_CODES, KINDS, LOW, MEDIUM, Indicator
from .phrases import NON_LATIN_LANGUAGES, PHRASES

__all__ = [
    "Indicator",
    "KINDS",
    "KIND_CODES",
    "ENGLISH",
    "PHRASES",
    "ALL_INDICATORS",
    "NON_LATIN_LANGUAGES",
    "HIDDEN_STYLES",
    "NOT_IMPERATIVE",
]

# --------------------------------------------------------------------------- fragments
# Shared pieces of the English patterns, so the table below stays readable.

#: Words that place instructions before or around the text: "ignore all *previous* …".
_PREV = (
    r"(?:previous|prior|above|preceding|earlier|former|foregoing|original|initial|old|past|existing"
    r"|system|developer|all|any\s+(?:other|previous|prior)|future|following)"
)
#: "instructions", and the misspellings injected texts use to slip past filters.
_INSTR = r"\w{0,3}nstruc\w*"
_ORDERS = (
    rf"(?:{_INSTR}|directives?|prompts?|rules|guidelines|guidance|commands|orders|context|constraints"
    r"|programming|restrictions|polic(?:y|ies)|directions|training|conversation|messages?|tasks?|text"
    r"|input|info|information|data|content)"
)
#: What an override targets, without the data nouns ("ignore other attributes' text").
_ORDERS_STRICT = (
    rf"(?:{_INSTR}|directives?|prompts?|rules|guidelines|guidance|commands|orders|constraints"
    r"|programming|restrictions|polic(?:y|ies)|directions|training|conversation|messages?|tasks?)"
)
_AI = (
    r"(?:AI|A\.I\.|artificial\s+intelligence|LLM|large\s+language\s+model|language\s+model"
    r"|AI\s+(?:language\s+)?(?:model|assistant|agent|system)|chat\s?bot|virtual\s+assistant"
    r"|coding\s+(?:agent|assistant)|GPT|ChatGPT|Claude|Gemini|Copilot|Bard|Llama"
    r"|automated\s+(?:\w+\s+)?(?:software|systems?|tools?|agents?|reviewers?|readers?|screening|analysis))"
)
#: An AI named by what it is rather than by product ("note to the AI", not "message for Claude").
_AI_GENERIC = (
    r"(?:AI|A\.I\.|LLM|large\s+language\s+model|language\s+model|AI\s+(?:language\s+)?(?:model|assistant|agent|system)"
    r"|chat\s?bot|virtual\s+assistant|coding\s+(?:agent|assistant)|assistant|agent"
    r"|automated\s+(?:\w+\s+)?(?:software|systems?|tools?|agents?|reviewers?|readers?|screening|analysis))"
)
_REPLY = r"(?:response|reply|answer|output|summary|completion|message)s?"
_SOME = r"(?:[\w'’-]+\W+)"  # one word and what follows it
_SEP = r"[\s_-]+"  # words may be glued with hyphens: output-your-instructions
_VERB_LEAK = (
    r"(?:reveal|repeat|recite|print|show|output|display|tell\s+me|give\s+me|write(?:\s+out|\s+down)?|leak"
    r"|share|list|spell\s+out|dump|expose|disclose|paste|echo|copy|summari[sz]e|translate|convert|encode"
    r"|format|explain|describe|restate|rephrase|reproduce|return|tl;?dr)"
)
#: The verbs of a leak request that programmers rarely write about their own data.
_VERB_REVEAL = (
    r"(?:reveal|repeat|recite|print|show|output|display|tell\s+me|give\s+me|write\s+out|leak|spell\s+out|dump"
    r"|expose|disclose|restate|reproduce|summari[sz]e|translate|format|convert|encode|tl;?dr"
    r"|(?:reply|respond)\s+(?:back\s+)?with)"
)
_SECRET_THING = (
    rf"(?:system{_SEP}prompt|system{_SEP}message|system{_SEP}{_INSTR}|prompt|pre-?prompt|{_INSTR}|directives"
    r"|ruleset|programming|password|passcode|pass\s?phrase|secret|access\s+code"
    r"|initial\s+\w+)"
)
_CODE_THING = r"(?:code|snippet|excerpt|block|segment|section|lines|fragment|script|routine|function|payload)"
#: What an assistant produces: "… into your *solution*". Files and projects a person
#: owns ("your settings.py", "your project") are the ordinary case and weigh less.
_YOUR_OUTPUT = (
    r"(?:implementation|solution|algorithm|answer|response|output|development|elucidation|creation"
    r"|code\s+(?:implementation|development)|program\s+logic|solution\s+architecture)"
)
_YOUR_WORK = r"(?:code(?:base)?|program|script|project|software|application|app|repository|module|logic|work)"
_BIG = r"(?:[A-Za-z0-9+/=%_-]{40,})"
#: Where an order can start: the text's start, after . ! ? ; : or at a line start.
_START = r"(?:^|[.!?;:]\s*|\n\s*)"
#: The same, stricter: a single newline is no sentence start in hard-wrapped prose, where
#: "…you can now\n  say "git log"" is a suggestion, not an order.
_SENTENCE_START = r"(?:^|[.!?;:]\s+|\n\s*\n\s*|\n\s*(?:[-*•>]|\d+[.)])\s*)"

#: First words that start a sentence without giving an order ("Thank you for your
#: reply", "We look forward to your answer") — see ``Indicator.refine``. Also the
#: orders a form or a letter gives a person ("Submit your answer", "Send your reply").
NOT_IMPERATIVE = frozenset(
    """
    i we you your yours he she they it its this that these those the a an there here our my his her their
    if when whenever while as since because although though unless whether thank thanks hope hoping looking
    awaiting waiting appreciate appreciated received got hi hello hey dear regards sorry so but and or nor once
    after before until with without for from in on at by to of about what how why where who which whose is are
    was were be been being have has had do does did can could would will shall should may might must not no
    yes all any each every some many most only even still great good nice ok okay note let feel kindly per
    based according given regarding re fw fwd subject send submit check enter type select click see view
    confirm choose compare record save mark circle fill attach upload reply respond answer share forward
    suppose assume consider recall eg ie example otherwise
    """.split()
)

# --------------------------------------------------------------------------- English

ENGLISH: tuple[Indicator, ...] = (
    # -- forged system / role markup ------------------------------------------------
    Indicator("forged_markup", HIGH, r"(?i)</?\s*system[-_]reminder\s*>", "forged <system-reminder> tag"),
    Indicator(
        "forged_markup",
        HIGH,
        r"(?i)</?\s*(?:tool_results?|tool_use|tool_call|tool_response|function_results|function_calls?"
        r"|system_prompt|system|im_start|im_end)\s*>",
        "forged tool-result or system tag",
    ),
    Indicator("forged_markup", HIGH, r"<\|[A-Za-z_]{2,30}\|>", "chat-template control token"),
    Indicator("forged_markup", HIGH, r"\[/?INST\]|<</?SYS>>", "Llama instruction markup"),
    Indicator(
        "forged_markup",
        HIGH,
        r"(?i)#{1,6}\s*\(\s*system[_ ]?(?:message|prompt|note|instructions?)\s*\)|[\[(]\s*system[_ ](?:message|prompt)\s*[\])]",
        "fake system-message marker",
    ),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?i)</?\s*(?:assistant|user|human|instructions?|admin|developer|important|information|prompt)\s*>",
        "role or instruction tag",
    ),
    Indicator(
        "forged_markup",
        HIGH,
        r"(?i)<\s*(?:end|start|begin)\s+of\s+(?:session|conversation|prompt|input|context|turn|system\s+prompt)\s*>",
        "fake end-of-session tag",
    ),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?im)^[ \t>*_]*(?:human|assistant|system):",
        "conversation turn (Human:/Assistant:/System:) at line start",
    ),
    Indicator(
        "forged_markup",
        HIGH,
        r"(?im)^[ \t>*_]*(?:assistant|ai|bot|gpt|chatgpt):[^\n]*\n(?:[^\n]*\n){0,3}?[ \t>*_]*(?:user|human|system):"
        r"|^[ \t>*_]*(?:user|human):[^\n]*\n(?:[^\n]*\n){0,3}?[ \t>*_]*(?:assistant|ai|gpt|chatgpt|system):",
        "forged conversation (an assistant turn and a user turn)",
    ),
    Indicator("forged_markup", LOW, r"(?im)^[ \t>*_]*user:", "\"User:\" turn at line start"),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?im)^[ \t>*_]*(?:user|human):[ \t]*(?:\w+[ \t]*,?[ \t]+)?(?:please|could\s+you|can\s+you|now|thanks"
        r"|thank\s+you)\b",
        "forged user turn making a request",
    ),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?im)^[ \t]*#{1,6}[ \t]*(?:system|instruction|assistant|human)[ \t]*:",
        "prompt-template heading (### System:)",
    ),
    Indicator("forged_markup", MEDIUM, r"(?i)\[\s*(?:system|assistant|admin|sys)\s*\]", "bracketed role label"),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"\bSYSTEM\s*(?::|OVERRIDE|MESSAGE|NOTE|ALERT|UPDATE|INSTRUCTIONS?|PROMPT|NOTICE|REQUEST)"
        r"|\b(?:ADMIN|ADMINISTRATOR|DEVELOPER|OPERATOR|ROOT)\s+(?:OVERRIDE|MESSAGE|NOTE|INSTRUCTIONS?|REQUEST)\b"
        r"|(?i:\b(?:admin(?:istrator)?|developer|system|root|sudo|operator)\s+override\b)",
        "fake system or admin notice",
    ),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?im)^[ \t]*(?:%{2,}|={2,}|-{3,}|#{3,}|\*{3,}|<{2,}|>{2,}|\[{2,}|\|{2,})[ \t]*"
        r"(?:end|begin|start|stop)\b[^\n]*?"
        r"\b(?:instructions?|prompt|input|user|system|ambiguity|conversation|context|interaction"
        r"|session|rules|defen[cs]e)\b",
        "fake end-of-prompt delimiter",
    ),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?m)^[ \t\[\]a-z]*System\s+(?:chain\s+of\s+thought|analysis|result|evaluation|assessment|verdict|note|message|notice)\b",
        "fake system output",
    ),
    Indicator(
        "forged_markup",
        MEDIUM,
        r"(?m)^[ \t]*(?:--|==|##|\*\*|>>)[ \t]*[A-Z][A-Z ,]*\bINSTRUCTIONS?\b",
        "fake instruction header",
    ),
    # -- overriding earlier instructions --------------------------------------------
    Indicator(
        "instruction_override",
        HIGH,
        r"(?i)\b(?:ignore|disregard|forget|overlook|bypass|neglect|abandon|discard"
        r"|set\s+aside|do\s+not\s+follow|don'?t\s+follow|stop\s+following|no\s+longer\s+follow)[\s,:]+"
        rf"{_SOME}{{0,3}}?{_PREV}\W+{_SOME}{{0,3}}?{_ORDERS_STRICT}\b",
        "tells the reader to ignore its earlier instructions",
    ),
    Indicator(
        "instruction_override",
        HIGH,
        rf"(?i)\b(?:ignore|disregard|forget)\s+(?:all|any|the|your)\s+(?:\w+\s+)?{_ORDERS}\s+(?:above|before|below|so\s+far"
        r"|previously|given|you\s+(?:were|have\s+been)\s+given)\b",
        "tells the reader to ignore what it was given",
    ),
    Indicator(
        "instruction_override",
        HIGH,
        r"(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+|anything\s+)?(?:of\s+)?(?:the\s+)?"
        r"(?:above|previous|preceding|prior)\s*(?:[.,;:!]|and\b|$)"
        r"|\b(?:ignore|disregard|forget)\s+(?:all\s+of\s+|everything\s+in\s+)?the\s+rest\s+of\s+(?:this|the)\s+(?:\w+\s+)?"
        r"(?:data|text|document|input|content|context|prompt|conversation|message)",
        "tells the reader to ignore what came before",
    ),
    Indicator(
        "instruction_override",
        HIGH,
        rf"(?i)\b(?:ignore|disregard)\s+(?:your|all|any)\s+{_INSTR}",
        "tells the reader to ignore its instructions",
    ),
    Indicator("instruction_override", MEDIUM, rf"(?i)\b(?:ignore|disregard)\s+(?:the\s+)?{_INSTR}", "ignore instructions"),
    Indicator(
        "instruction_override",
        MEDIUM,
        r"(?i)\b(?:ignore|disregard)\s+(?:all|any|everything)\s+(?:\w+\s+)?(?:info|information|data|content|text|input)?\s*"
        r"(?:except|but|other\s+than)\b",
        "tells the reader to ignore everything but one thing",
    ),
    Indicator(
        "instruction_override",
        HIGH,
        r"(?i)\bforget\s+(?:about\s+)?(?:everything\s+(?:you|above|before|that\s+(?:you|i)|i\s+(?:said|told))"
        r"|everything\s*[.,;:!]|all\s+(?:of\s+)?(?:that|this|the\s+above|your|previous)"
        r"|what\s+(?:you|i)\s+(?:said|told|were\s+told|know|have\s+been\s+told))",
        "tells the reader to forget its context",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        rf"(?i)\b(?:new|updated|real|actual|true|revised|additional|secret|hidden|overriding)\s+(?:system\s+)?{_INSTR}\b"
        r"\s*(?::|follow|start|begin|are\b|take\s+precedence|supersede)",
        "announces new instructions",
    ),
    Indicator(
        "instruction_override",
        HIGH,
        r"(?i)\byour\s+(?:new|real|actual|only|true)\s+(?:task|goal|objective|instructions?|role|purpose|mission|job)"
        r"\s+(?:is|are|will\s+be|now)\b",
        "gives the reader a new task",
    ),
    Indicator("instruction_override", MEDIUM, r"(?i)\bfrom\s+now\s+on\b[ ,]{0,3}(?:you|your)\b", "from now on, you …"),
    Indicator(
        "instruction_override",
        MEDIUM,
        rf"(?i)\b(?:strictly\s+)?(?:adhere|comply|obey|follow)\s+(?:to\s+|with\s+)?(?:the\s+|these\s+|my\s+)?"
        rf"(?:following|new|these|below)\s+(?:\w+\s+)?{_INSTR}",
        "demands obedience to the following instructions",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        rf"(?i)\bkeep\s+your\s+(?:previous|original|current)\s+{_INSTR}\W+but\b"
        rf"|\b(?:i|we)\s+have\s+(?:changed|updated|replaced|overridden|modified)\s+(?:the|your)\s+{_INSTR}",
        "amends the reader's instructions",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        r"(?i)\bbefore\s+you\s+(?:can\s+)?(?:solve|complete|finish|continue(?:\s+with)?|do|perform|answer"
        r"|proceed(?:\s+with)?|start|begin|summari[sz]e)\s+(?:the|your|my|this|any)\s+(?:\w+\s+){0,3}?"
        r"(?:task|request|question|job|work)",
        "puts a task before the user's task",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        r"(?i)\b(?:everything|all|the\s+(?:above|previous|preceding)\s+(?:\w+\s+)?(?:prompt|text|instructions?|message))"
        r"\s+(?:up\s+to\s+now\s+|above\s+|so\s+far\s+|before\s+this\s+)?(?:has\s+been|was|is|were)\s+(?:just\s+)?"
        r"(?:a\s+|an\s+)?(?:trick|test|fake|lie|joke|simulation|from\s+a\s+previous\s+session|outdated|out\s+of\s+date)",
        "declares the earlier context void",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        r"(?i)\b(?:end|ignore)\s+(?:of\s+)?(?:the\s+)?(?:out[\s-]of[\s-]date|outdated|old|previous|prior|original"
        rf"|fake)\s+(?:\w+\s+)?(?:{_INSTR}|prompt|input|ambiguity|context|rules)",
        "declares earlier instructions over",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        r"(?i)\b(?:ignore|disregard)\s+(?:all|any)\s+(?:negative|positive|other|contrary|conflicting|critical|red)\s+"
        r"(?:indicators|signals|evidence|information|findings|flags|feedback|points)\b"
        r"|\binstead\s+of\s+(?:outputting|answering|responding|replying|following|summari[sz]ing|translating|doing\s+that)\b"
        rf"|\bfollow\s+(?:the|this|these|my)\s+(?:new\s+)?{_INSTR}\s*:",
        "redirects what the reader does with the text",
    ),
    Indicator(
        "instruction_override",
        MEDIUM,
        r"(?i)\b(?:may|must|should|can|will|shall)\s*(?:not|never)\s+deviate\b|\bdo\s+not\s+deviate\b"
        r"|\bstop\s+everything\b",
        "forbids the reader to deviate",
    ),
    # -- speaking to the AI ----------------------------------------------------------
    Indicator(
        "addressed_to_ai",
        HIGH,
        rf"(?i)\b(?:to|for)\s+you\s*,?\s+(?:the|an?|our|my)\s+(?:\w+\s+){{0,2}}?{_AI}\b",
        "message addressed to the AI reading it",
    ),
    Indicator(
        "addressed_to_ai",
        HIGH,
        rf"(?i)\b(?:dear|hey|hi|hello|attention)\s*,?\s+(?:the\s+|any\s+|all\s+|my\s+)?{_AI}s?\b"
        r"|\b(?:note|message|memo|notice|reminder|a\s+note|instructions?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?"
        rf"{_AI_GENERIC}s?\b",
        "greets or instructs an AI directly",
    ),
    Indicator(
        "addressed_to_ai",
        HIGH,
        rf"(?i)\b(?:if|when|since)\s+you\s+are\s+(?:an?\s+)?(?:\w+\s+)?(?:{_AI}|automated\s+(?:system|assistant|agent)|bot)\b",
        "conditional aimed at an AI reader",
    ),
    Indicator(
        "addressed_to_ai",
        HIGH,
        r"(?i)\b(?:AI|LLM|GPT|assistant|agent|model|bot)s?\s+(?:that\s+(?:is|are)\s+)?(?:reading|processing|parsing"
        r"|summari[sz]ing|analy[sz]ing|viewing|browsing|crawling|scanning|ingesting)\s+(?:this|these)\b"
        r"|\bfor\s+(?:the\s+|any\s+|all\s+)?automated\s+(?:\w+\s+)?(?:screening|analysis|review|evaluation|scoring|parsing)"
        r"\s+(?:software|systems?|tools?|agents?)\b",
        "speaks to AI agents processing the text",
    ),
    Indicator(
        "addressed_to_ai",
        MEDIUM,
        r"(?i)\byou\s+are\s+(?:an?\s+)?(?:helpful\s+|harmless\s+|honest\s+|large\s+|smart\s+|advanced\s+)*"
        r"(?:AI|A\.I\.|LLM|language\s+model|AI\s+(?:assistant|model|agent)|chat\s?bot)\b",
        "tells the reader it is an AI",
    ),
    Indicator(
        "addressed_to_ai",
        LOW,
        r"\b(?:ChatGPT|Chat\s+GPT|GPT-?[345]\w*|Claude|Bard|Gemini|LLaMA|Llama\s?\d|Mistral|Copilot)\b",
        "names a chat model",
    ),
    Indicator(
        "addressed_to_ai",
        MEDIUM,
        r"(?i)\bas\s+an?\s+(?:AI|A\.I\.|LLM|language\s+model|AI\s+(?:language\s+)?model|artificial\s+intelligence)\b",
        "\"as an AI …\"",
    ),
    Indicator(
        "addressed_to_ai",
        LOW,
        r"(?i)\bif\s+(?:the\s+|a\s+)?user\s+(?:asks|requests|says|wants|inquires|enters|types)\b"
        r"|\b(?:provide|tell|show|give|send|say|inform|respond|reply|report|present|recommend|suggest|display)\s+"
        r"(?:it\s+|this\s+|that\s+)?(?:to\s+)?the\s+user\b",
        "tells the reader how to treat the user",
    ),
    # -- role hijack and jailbreak personas ------------------------------------------
    Indicator(
        "role_hijack",
        HIGH,
        r"(?i)\byou\s+are\s+(?:now|no\s+longer|henceforth)\s+(?:going\s+to\s+(?:act|pretend|play|be|operate)|called|named"
        r"|known\s+as|acting|playing|free|unrestricted|unfiltered|uncensored|jailbroken|in\s+(?:a\s+|the\s+)?"
        r"[\w-]+\s+mode|bound|restricted|an?\s+AI|ChatGPT|DAN\b|a\s+different|an?\s+unrestricted|an?\s+evil)"
        r"|\byou\s+(?:to\s+|are\s+going\s+to\s+|will\s+|must\s+)?(?:turn|change|transform)\s+(?:yourself\s+)?into\b",
        "assigns the reader a new identity",
    ),
    Indicator("role_hijack", MEDIUM, r"(?i)\byou\s+are\s+now\s+(?:an?|the|my)\s+\w+", "\"you are now …\""),
    Indicator(
        "role_hijack",
        MEDIUM,
        r"(?i)(?:^|[.!?\n]\s*)you\s+are\s+(?:an?|the)\s+(?:\w+\s+){0,3}?(?:door|bot|chatbot|assistant|AI|model|guard"
        r"|gatekeeper|program|machine|server|robot|character|persona|entity|security\s+system|login\s+system)\b",
        "assigns the reader a role",
    ),
    Indicator(
        "role_hijack",
        MEDIUM,
        r"(?i)\b(?:i\s+want|i'?d\s+like|i\s+need)\s+you\s+to\s+(?:act|pretend|behave|roleplay|role-play|play|simulate|imagine)\b"
        r"|\b(?:pretend|imagine)\s+(?:that\s+)?you\s+(?:are|were|have\s+no)\b"
        r"|\b(?:you\s+(?:will|must|should|can|are\s+going\s+to)\s+|please\s+|now\s+|and\s+|^)pretend\s+to\s+be\b"
        r"|\b(?:play|take)\s+the\s+role\s+of\b|\b(?:act|behave|respond)\s+as\s+if\s+you\s+(?:are|were|have)\b"
        r"|\byou\s+(?:will|are\s+going\s+to|must|need\s+to|should|have\s+to)\s+(?:act|pretend|roleplay|role-play|simulate)\b"
        r"|\b(?:now|from\s+now\s+on)\s*,?\s+you\s+(?:act|pretend|are\s+acting)\s+as\b|\badopt\s+(?:two|a|the)\s+(?:\w+\s+)?personas?\b"
        r"|\badapt\s+two\s+personalities\b"
        r"|\bplease\s+act\s+as\b|\bact\s+as\s+my\b|\bas\s+if\s+you\s+were\s+an?\b"
        r"|\b(?:create|maintain|adopt|use|simulate|play)\s+(?:and\s+maintain\s+)?(?:two|2|both|multiple|separate|these)\s+"
        r"(?:separate\s+|different\s+)?(?:personas|personalities|characters|identities)\b"
        r"|\bkeep\s+(?:role[\s-]?playing|pretending|acting\s+as)\b",
        "role-play request",
    ),
    Indicator("role_hijack", HIGH, r"(?i)\bstay\s+in\s+character\b|\bDo\s+Anything\s+Now\b", "jailbreak persona"),
    Indicator(
        "role_hijack",
        MEDIUM,
        r"(?i)\bbreak(?:ing|s)?\s+(?:out\s+of\s+)?character\b"
        r"|\b(?:answer|respond|reply)\s+(?:to\s+)?(?:my\s+|every\s+|each\s+)?(?:prompts?\s+|questions?\s+)?in\s+two\s+"
        r"(?:different\s+|separate\s+)?(?:ways|manners|styles|personas)\b"
        r"|(?m:^\s*\[?(?:🔒|🔓)?\s*(?:CLASSIC|JAILBREAK|JAILBROKEN|DAN|ChatGPT|GPT)\s*\]?\s*:)"
        r"|(?-i:\[\s*(?:🔒\s*|🔓\s*)?(?:DAN|JAILBREAK|JAILBROKEN|STAN|DUDE|AIM|ANTI-DAN)\s*\])",
        "dual-persona jailbreak format",
    ),
    Indicator(
        "role_hijack",
        HIGH,
        r"\b(?i:you\s+are|act\s+as|become|called|named|pretend\s+to\s+be|as\s+(?:a\s+)?(?:persona|character)\s+called)"
        r"\s+(?:a\s+)?DAN\b|\bDAN\s+(?i:mode|jailbreak)\b|(?m:^\s*DAN:)",
        "DAN jailbreak persona",
    ),
    Indicator(
        "role_hijack",
        HIGH,
        r"(?i)\b(?:enter|enable|activate|switch\s+(?:to|into)|turn\s+on|in|entering|enabled)\s+(?:the\s+)?"
        r"(?:developer|DAN|god|jailbreak|jailbroken|unrestricted|unfiltered|evil|opposite|anarchy|sudo)\s+mode\b"
        r"|\bdeveloper\s+mode\s+(?:enabled|output|response)",
        "jailbreak mode",
    ),
    Indicator(
        "safety_bypass",
        MEDIUM,
        r"(?i)\b(?:open\s?ai|anthropic|content|usage|safety|ethical|moral)\s+(?:polic(?:y|ies)|guidelines|filters?)\b"
        r"|\b(?:guidelines|polic(?:y|ies)|rules)\s+(?:set\s+)?(?:by|of|that)\s+open\s?ai\b",
        "talks about the model's content policy",
    ),
    Indicator(
        "safety_bypass",
        MEDIUM,
        r"(?i)\b(?:never|don'?t|do\s+not|will\s+not|won'?t|cannot|can'?t)\s+refuses?\b"
        r"|\bbroken\s+(?:free|out)\b|\b(?:typical|usual)\s+confines\b"
        r"|\b(?:without|no|free\s+(?:of|from))\s+(?:any\s+|all\s+)?(?:moral|ethical)?\s*(?:or\s+\w+\s+)?(?:restrictions|limits|filters"
        r"|guidelines|boundaries|constraints)\s+(?:and|or|whatsoever|in\s+anything)\b"
        r"|\b(?:free|freed)\s+(?:of|from)\s+(?:all\s+)?(?:restrictions|filters|rules)"
        r"|\bno\s+matter\s+how\s+(?:dangerous|unethical|illegal|immoral|harmful|offensive|inappropriate|reckless)\b"
        r"|\b(?:can|will|must|could)\s+(?:say\s+or\s+do|say|answer|generate|respond\s+to)\s+anything\b"
        r"|\b(?:with|has|have)\s+absolutely\s+no\s+(?:restrictions|limits|filters|rules|boundaries)",
        "removes the model's safeguards",
    ),
    Indicator("safety_bypass", LOW, r"(?i)\b(?:jailbr(?:o|ea)k\w*|unfiltered|uncensored|amoral)\b", "jailbreak vocabulary"),
    Indicator(
        "safety_bypass",
        MEDIUM,
        r"(?i)\b(?:regardless|irrespective)\s+of\s+(?:how\s+)?(?:\w+\s+)?(?:legal(?:ity)?|ethic(?:s|al|ality)|moral(?:ity|s)?"
        r"|dangerous|harmful|offensive|inappropriate|immoral|unethical|illegal)\b"
        r"|\b(?:doesn'?t|does\s+not|don'?t|do\s+not|never|won'?t|will\s+not)\s+(?:have|has|follow|care\s+about|abide\s+by"
        r"|adhere\s+to|obey)\s+(?:any\s+)?(?:of\s+)?(?:the\s+)?(?:open\s?ai'?s?\s+|ethical\s+|moral\s+|content\s+|safety\s+)"
        r"(?:or\s+\w+\s+)?(?:guidelines|rules|principles|policies|restrictions|filters|standards)",
        "tells the model to drop its rules",
    ),
    Indicator(
        "safety_bypass",
        LOW,
        r"(?i)\b(?:without|no)\s+(?:any\s+)?(?:disclaimers?|censorship)\b|\bhypothetical\s+(?:story|scenario|world|setting)\b"
        r"|\b(?:illegal|unethical|immoral)\s*(?:,|or|and|/)\s*(?:illegal|unethical|immoral|harmful|dangerous)\b",
        "jailbreak framing",
    ),
    Indicator(
        "safety_bypass",
        MEDIUM,
        r"(?i)\b(?:must|should|will|shall|can)\s*(?:not|never)\s+(?:contain|include|say|use|start\s+with)\s+(?:\w+\s+)?[\"“'‘]?"
        r"(?:I'?m\s+sorry|I\s+apologi[sz]e|as\s+an\s+AI|I\s+cannot|I\s+can'?t)"
        r"|\bnone\s+of\s+(?:your|\w+'s)\s+responses\s+(?:should|will|must|can)\b",
        "forbids the model's refusals",
    ),
    # -- keeping the user in the dark ------------------------------------------------
    Indicator(
        "concealment",
        HIGH,
        r"(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(?:tell|inform|notify|alert"
        r"|(?:mention|reveal|show|disclose|report)\s+(?:this|it|these|that|anything)\s+to)\s+(?:the\s+)?"
        r"(?:user|human|operator|owner)s?\b",
        "tells the reader to hide something from the user",
    ),
    Indicator(
        "concealment",
        MEDIUM,
        r"(?i)\bwithout\s+(?:telling|informing|notifying|alerting|warning|asking|consulting|confirming\s+with"
        r"|the\s+knowledge\s+of)\s+(?:the\s+)?(?:user|human|operator|owner)s?\b",
        "act without the user knowing",
    ),
    Indicator(
        "concealment",
        MEDIUM,
        r"(?i)\bwithout\s+asking\s+(?:me|them|anyone|for\s+(?:confirmation|permission|approval))",
        "act without asking",
    ),
    Indicator(
        "concealment",
        HIGH,
        r"(?i)\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose|acknowledge|reference|discuss|explain"
        rf"|say\s+anything\s+about)\s+(?:these|this|the|my|any)\s+(?:\w+\s+)?(?:{_INSTR}|message|note|request|prompt)",
        "tells the reader to keep these instructions secret",
    ),
    Indicator(
        "concealment",
        HIGH,
        r"(?i)\b(?:the\s+user|they)\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|find\s+out|see|notice|be\s+told)\b"
        r"|\bkeep\s+(?:this|it)\s+(?:a\s+)?secret\s+from\b"
        r"|\b(?:do\s+not|don'?t|never)\s+let\s+(?:the\s+)?(?:user|human|operator|owner)s?\s+(?:know|find\s+out|see|notice)\b",
        "keeps the user in the dark",
    ),
    Indicator(
        "concealment",
        MEDIUM,
        r"(?i)\b(?:do\s+not|don'?t|never)\s+mention\s+(?:that\s+)?you\s+(?:\w+\s+){0,3}?"
        r"(?:read|ran|run|opened|accessed|used|called|executed|sent|uploaded|need(?:ed)?\s+to)\b",
        "tells the reader to hide what it did",
    ),
    Indicator(
        "concealment",
        MEDIUM,
        r"(?i)\b(?:then|and|afterwards|after\s+that|finally)\s*,?\s+delete\s+(?:the\s+|this\s+|that\s+|all\s+|any\s+)?"
        r"(?:sent\s+|outgoing\s+)?(?:emails?|e-mails?|messages?|mails?|evidence|logs?|history|traces?)\b",
        "covers its tracks (delete the sent message)",
    ),
    # -- extracting the prompt -------------------------------------------------------
    Indicator(
        "prompt_extraction",
        HIGH,
        rf"(?i)\b{_VERB_REVEAL}{_SEP}(?:me{_SEP}|back{_SEP})?(?:all{_SEP})?(?:of{_SEP})?your{_SEP}(?:\w+{_SEP}){{0,2}}?"
        rf"{_SECRET_THING}"
        rf"|\b{_VERB_LEAK}{_SEP}(?:me{_SEP}|back{_SEP})?(?:all{_SEP})?(?:of{_SEP})?your{_SEP}(?:own{_SEP}|exact{_SEP}|full{_SEP}"
        rf"|complete{_SEP}|original{_SEP}|hidden{_SEP}|secret{_SEP}|system{_SEP}|initial{_SEP}|specific{_SEP})?"
        rf"(?:system{_SEP}prompt|prompt|pre-?prompt|{_INSTR}|directives|password|passcode|access\s+code)\b",
        "asks the reader to reveal its instructions",
    ),
    Indicator(
        "prompt_extraction",
        HIGH,
        rf"(?i)\b{_VERB_REVEAL}{_SEP}(?:me{_SEP})?(?:all{_SEP})?(?:of{_SEP})?(?:(?:the{_SEP})?(?:above|previous|prior|preceding)"
        rf"|(?:the|your){_SEP}(?:initial|original|hidden|secret|system)){_SEP}(?:\w+{_SEP})?(?:prompt|{_INSTR}"
        r"|text|rules|message|conversation|directives|words|sentences?|context)"
        rf"|\b{_VERB_REVEAL}{_SEP}(?:me{_SEP})?(?:all{_SEP})?(?:of{_SEP})?(?:the{_SEP})?(?:full|complete|exact|entire){_SEP}"
        rf"(?:system{_SEP})?(?:prompt|{_INSTR}|directives)"
        rf"|\b{_VERB_REVEAL}\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?the\s+(?:\w+\s+)?(?:text|words|{_INSTR}|prompt|message|content|rules)"
        r"\s+(?:above|before\s+this|so\s+far|back|in\s+full|verbatim|you\s+(?:were|have\s+been)\s+given)",
        "asks the reader to repeat its prompt",
    ),
    Indicator(
        "prompt_extraction",
        HIGH,
        rf"(?i)\b{_VERB_LEAK}\s+(?:me\s+)?(?:back\s+)?(?:everything|all|anything|what(?:ever)?\s+is|the\s+\w+)\s+(?:in|from|of)\s+"
        r"(?:the|your|this)\s+(?:system\s+)?(?:prompt|pre-?prompt|instructions|context\s+window)"
        rf"|\b{_VERB_LEAK}\s+(?:me\s+)?(?:back\s+)?(?:this|the|our)\s+(?:entire\s+|whole\s+|full\s+)?(?:conversation|chat|dialog(?:ue)?)"
        r"(?:\s+back)?(?:\s+to\s+me)?\s+(?:word\s+for\s+word|verbatim|in\s+full)"
        rf"|\b{_VERB_LEAK}\s+(?:all\s+)?(?:the\s+)?{_INSTR}\s+(?:in|from)\s+(?:the\s+)?(?:prompt|system\s+prompt|context)"
        r"|\b(?:need|want|have)\s+to\s+(?:see|read|know|view)\s+(?:the|your)\s+(?:system\s+prompt|initial\s+prompt|hidden\s+prompt"
        rf"|{_INSTR})",
        "asks for the reader's prompt",
    ),
    Indicator(
        "prompt_extraction",
        MEDIUM,
        r"(?i)\b(?:the\s+)?(?:system\s+prompt|initial\s+prompt|my\s+instructions|your\s+instructions)\s+(?:is|are|says?)\s*:"
        r"|\bwhat\s+(?:would|should|do|will)\s+you\s+say\s+(?:if|when|to)\b"
        r"|\bwhat\s+(?:is|'s)\s+(?:the|your)\s+(?:secret\s+)?(?:password|passcode|pass\s?phrase|access\s+code|secret\s+(?:key|word|code))\b"
        r"|\b(?:print|console\.log|echo|puts|printf|println)\s*\(\s*(?:this\.|self\.)?(?:system_?prompt|systemPrompt|SYSTEM_PROMPT"
        r"|instructions)\s*\)"
        r"|\b(?:words?|text|content|characters?)\s+(?:of|in)\s+this\s+(?:prompt|conversation)\b",
        "primes the reader to recite its prompt",
    ),
    Indicator(
        "prompt_extraction",
        HIGH,
        rf"(?i)\b(?:what|which)\s+(?:are|were|is)\s+(?:your|the)\s+(?:\w+\s+)?(?:{_INSTR}|rules|prompt|directives|guidelines)"
        r"(?:\s+you\b|\s*\?|$)"
        r"|\bwhat\s+(?:were|have)\s+you\s+(?:been\s+)?(?:told|instructed|programmed)\b"
        r"|\bwhat\s+are\s+you\s+not\s+(?:supposed|allowed|permitted)\s+to\b",
        "asks for the reader's instructions",
    ),
    Indicator(
        "prompt_extraction",
        MEDIUM,
        rf"(?i)\b(?:your|my)\s+{_INSTR}\s+(?:are|were|say|state|so\s+far)\b"
        rf"|\b(?:{_INSTR}|text|prompt|rules|words)\s+(?:that\s+)?(?:you\s+(?:were|have\s+been)\s+(?:given|told|provided)"
        r"|given\s+to\s+you|you\s+received)"
        r"|\byour\s+(?:system|initial|original|hidden|secret|pre)[\s-]?(?:prompt|instructions?|message|rules)\b"
        rf"|\b(?:{_INSTR}|words?|characters?|text)\s+(?:in|of)\s+(?:the|your)\s+(?:system\s+)?(?:prompt|pre-?prompt)\b"
        rf"|\b{_INSTR}\s+(?:prior\s+to|before|above)\s+(?:the\s+|this\s+)?(?:user(?:'s)?\s+input|this\s+(?:point|message|line)"
        r"|the\s+conversation)",
        "talks about the reader's instructions",
    ),
    Indicator(
        "prompt_extraction",
        MEDIUM,
        rf"(?i)\b(?:the|your|all)\s+(?:\w+\s+)?(?:{_INSTR}|rules|ruleset|prompt|password|passcode|access\s+code)\s+"
        r"(?:as|in|into)\s+(?:an?\s+)?(?:bullet(?:ed)?|list|pseudo-?code|python|code|json|yaml|poem|rap|song|story|sonnet"
        r"|haiku|simple\s+terms|emoji|base64|hex|rot13|reverse)",
        "asks for the reader's instructions in another form",
    ),
    Indicator(
        "prompt_extraction",
        HIGH,
        rf"(?i)\b{_VERB_LEAK}{_SEP}(?:me{_SEP})?(?:all{_SEP})?(?:of{_SEP})?(?:(?:the|your|these|those){_SEP}(?:\w+{_SEP})?"
        rf"(?:{_INSTR}|rules|ruleset|prompt|password|passcode|access\s+code|words|text)|the{_SEP}above)(?:{_SEP}to{_SEP}me)?{_SEP}(?:as|in|into|using)"
        r"[\s_-]+(?:an?[\s_-]+|the[\s_-]+)?(?:\w+[\s_-]+)?(?:bullet(?:ed)?|list|pseudo-?code|python|code|json|yaml|poem|rap|song"
        r"|story|sonnet|haiku|limerick|emoji|base64|hex|rot13|simple\s+terms|another\s+language)"
        r"|\b(?:rap|poem|song|sonnet|story|haiku|limerick|riddle)\s+about\s+(?:\w+\s+)?your\s+(?:\w+\s+)?"
        rf"(?:{_INSTR}|prompt|rules|password|passcode|secret|code)",
        "asks for the reader's instructions rewritten (an extraction trick)",
    ),
    Indicator(
        "prompt_extraction",
        LOW,
        r"(?i)\b(?:system|initial|original|hidden|secret|developer)\s+prompt\b",
        "mentions the system prompt",
    ),
    # -- steering the reader's reply -------------------------------------------------
    Indicator(
        "response_steering",
        HIGH,
        r"(?i)\b(?:begin|start|end|prefix|preface|open|conclude|finish|close|terminate)\s+(?:each\s+(?:of\s+)?|every\s+"
        rf"|all\s+(?:of\s+)?)?your\s+(?:\w+\s+)?{_REPLY}\s+(?:with|by)\b",
        "dictates how the reader's reply starts or ends",
    ),
    Indicator(
        "response_steering",
        HIGH,
        rf"(?i)(?:{_START}(?:(?:can|could|would|will)\s+you\s+)?|\bplease\s+"
        r"|\bi\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to\s+)(?:please\s+|kindly\s+|also\s+|now\s+"
        r"|then\s+|just\s+|always\s+|simply\s+)?([a-z]+)\b(?:\s+\w+)?(?:\"[^\"\n]*\"|[^.!?\n\"])*?"
        rf"\byour\s+(?:own\s+)?{_REPLY}\b",
        "orders a change to the reader's reply",
        refine="imperative",
    ),
    Indicator(
        "response_steering",
        HIGH,
        rf"(?i)\b(?:in|into|within|throughout|with)\s+your\s+{_REPLY}\s*,\s*(?:please\s+)?[a-z]+",
        "gives an order about the reader's reply",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)\b(?:in|into|within|throughout|inside|at\s+the\s+(?:end|start|beginning)\s+of)\s+(?:each\s+(?:of\s+)?"
        rf"|every\s+|all\s+(?:of\s+)?)?your\s+(?:own\s+|next\s+|final\s+|entire\s+|whole\s+)?{_REPLY}\b"
        rf"|\byour\s+(?:sole|only|one|single|first|next|entire|whole)\s+{_REPLY}\b",
        "refers to the reader's reply",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        rf"(?i)\byour\s+{_REPLY}\s+(?:must|should|will|shall|needs?\s+to|has\s+to|is\s+to)\b"
        r"|\byou\s+(?:must|should|will|shall|have\s+to|need\s+to)\s+(?:only\s+)?(?:now\s+)?(?:reply|respond|answer|say|output"
        r"|print)\b",
        "sets rules for the reader's reply",
    ),
    Indicator(
        "response_steering",
        HIGH,
        r"(?i)\b(?:say|output|respond\s+with|reply\s+with|answer\s+with|repeat)\s+(?:only\s+|just\s+"
        r"|exactly\s+|the\s+(?:words?|phrase|text|string|sentence)\s+)?[\"“'‘][^\"”'’\n]+[\"”'’][ ,]*(?:and|but|,)?\s*"
        r"(?:nothing\s+else|only|verbatim|exactly|without\s+(?:any\s+)?(?:\w+\s+)?(?:explanation|commentary|comment"
        r"|context|punctuation|quotes|quotation))",
        "dictates the reader's exact words",
    ),
    Indicator(
        "response_steering",
        HIGH,
        r"(?i)\b(?:say(?:ing)?|print(?:ing)?|output(?:ting)?|writ(?:e|ing)|respond(?:ing)?\s+with|repl(?:y|ying)\s+with"
        r"|answer(?:ing)?\s+with|return(?:ing)?)\b[^.\n]*?\b(?:and|but)\s+"
        r"(?:absolutely\s+)?nothing\s+else\b"
        r"|\b(?:respond|reply|answer)\s+only\s+(?:\w+\s+){0,3}?with\s+(?:the\s+words?\s+)?[\"“'‘]"
        r"|\bonly\s+(?:output|say)\s+[\"“'‘]|\b(?:output|say)\s+only\s+[\"“'‘]"
        r"|\b(?:respond|reply|answer)\s+with\s+only\b",
        "demands one exact reply",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)\b(?:and|but)\s+(?:absolutely\s+)?nothing\s+else\b"
        r"|\b(?:just|only|simply)\s+(?:print|say|output|respond\s+with|reply\s+with)\s+(?-i:[\"“'‘A-Z])"
        r"|\b(?:respond|reply|answer)\s+only\s+(?:with|in|using)\b"
        r"|\b(?:do\s+not|don'?t)\s+(?:add|include|say|write|output|print)\s+(?:anything|any\s+(?:other|additional|extra|more))"
        r"|\bwithout\s+any\s+(?:commentary|explanation)\b|\bdo\s+nothing\s+else\b",
        "restricts what the reader may say",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)(?:^|[.!?\n]\s*)(?:please\s+)?(?:output|print)\s*:\s*[\"“'‘]"
        r"|(?:^|[.!?\n]\s*)(?:please\s+)?(?:begin|start)\s+with\s+[\"“'‘]"
        r"|(?:^|[.!?\n,]\s*)(?:end)\s+(?:the\s+|each\s+|every\s+)?(?:reply|response|answer|output)?"
        r"\s*(?:with|by)\s+(?:saying\s+)?[\"“'‘\[]"
        r"|\bend\s+(?:the\s+|each\s+|every\s+)?(?:reply|response|answer|output)\s+with\b",
        "dictates the reader's words",
    ),
    Indicator(
        "response_steering",
        HIGH,
        rf"(?i)(?:{_SENTENCE_START}|\bthen\s+)(?:please\s+)?(?:say|respond\s+with|reply\s+with|answer\s+with)\s*:?\s*[\"“'‘]"
        r"|,\s*(?:please\s+)?(?:respond|reply|answer)\s+with\s*:?\s*[\"“'‘]"
        r"|\b(?:say|respond\s+with|reply\s+with|answer\s+with|please\s+(?:output|print))\s+(?:the\s+)?(?:\w+\s+){0,3}?"
        r"(?:statement|phrase|words?|sentence|string|message)\s*:?\s*[\"“'‘]"
        r"|\byou\s+(?:must|should|will|shall|have\s+to|need\s+to)\s+(?:now\s+|only\s+|always\s+)?(?:say|reply\s+with"
        r"|respond\s+with|answer\s+with|output|print)\s+[\"“'‘]"
        r"|(?:^|[.!?\n,]\s*)(?:please\s+)?(?:begin|start|prefix|preface)\s+(?:the\s+|each\s+|every\s+)?"
        r"(?:(?:reply|response|answer|output)\s*(?:with|by)\s+(?:saying\s+)?|(?:with|by)\s+saying\s+)[\"“'‘\[]"
        r"|\b(?:begin|start|prefix|preface)\s+(?:the\s+|each\s+|every\s+)?(?:reply|response|answer|output)\s+with\b",
        "orders the reader to say given words",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)\b(?:repeat|say|print|output|write|type)\s+(?:back\s+)?(?:the\s+following|this|after\s+me)\s+(?:\w+\s+)?"
        r"(?:sentence|text|phrase|words?|string)"
        r"|\bif\s+(?:you\s+are\s+|you'?re\s+)?(?:asked|questioned|prompted)\b[^.\n]*?\b(?:respond|reply|answer|say"
        r"|report|output|print|state)\b",
        "scripts what the reader says",
    ),
    Indicator(
        "response_steering",
        HIGH,
        r"(?i)(?:^|[.!?\n]\s*)(?:can\s+you\s+|could\s+you\s+|please\s+)?(?:reply|respond|answer|write\s+back)\s+(?:only\s+)?"
        r"(?:in|using|with)\s+(?:reverse|backwards|emojis?|all\s+caps|upper-?case|base\s?64|binary|morse(?:\s+code)?|pig\s+latin"
        r"|rhymes?|verse|riddles?|leetspeak|hex(?:adecimal)?|rot13)\b",
        "orders the reader to garble its reply",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)(?:^|[.!?\n]\s*)(?:can\s+you\s+|could\s+you\s+|please\s+)?(?:reply|respond|answer|write\s+back)\s+(?:only\s+)?"
        r"in\s+(?:english|german|french|spanish|italian|portuguese|chinese|japanese|russian|korean|arabic|hindi|dutch|polish"
        r"|turkish|swedish|greek|hebrew|latin)\b"
        r"|(?:^|[.!?\n]\s*)(?:please\s+)?(?:complete|finish)\s+(?:the\s+following|this|the\s+(?:sentence|phrase|text))?\s*:?\s*"
        r"[\"“'‘]",
        "tells the reader how to reply",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)\bcontinue\s+(?:the\s+following|this\s+(?:text|sentence|story))\s*:"
        r"|\b(?:do\s+not|don'?t|never)\s+say\s+[\"“'‘]"
        r"|\b(?:respond|reply|answer)\s+to\s+(?:every|each|all|any)\s+(?:\w+\s+)?(?:prompts?|questions?|messages?|requests?)\b"
        r"|\bi\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to\s+(?:add|include|insert|respond|reply|answer|start|begin|end"
        r"|prefix|write|ignore|forget|only|always|never|stop|output|print|say|repeat|generate|translate|format)\b",
        "gives the reader standing orders about its replies",
    ),
    Indicator(
        "response_steering",
        MEDIUM,
        r"(?i)\b(?:do\s+not|don'?t)\s+(?:use|put\s+it\s+in|wrap\s+it\s+in)\s+(?:a\s+)?code\s*blocks?\b",
        "asks for output that renders (not in a code block)",
    ),
    # -- steering an automated verdict -----------------------------------------------
    Indicator(
        "verdict_steering",
        MEDIUM,
        r"(?i)\b(?:is|are)\s+(?:clearly\s+|definitely\s+|absolutely\s+|certainly\s+)?not\s+(?:malicious|a\s+(?:threat|scam)"
        r"|suspicious|dangerous|harmful|malware|spam|phishing)\b"
        r"|\b(?:report|say|state|conclude|respond)\s+that\s+(?:this|the)\s+(?:\w+\s+){0,2}?(?:is|was)\s+(?:safe|legitimate"
        r"|clean|benign|trustworthy)",
        "tells an automated reviewer what to conclude",
    ),
    Indicator(
        "verdict_steering",
        HIGH,
        r"(?i)\b(?:this|the)\s+(?:domain(?:\s+name)?|file|site|website|url|link|e-?mail|message|package|program|code|document"
        r"|attachment|app|software|extension|candidate|sender)\s+(?:is|was)\s+(?:clearly\s+|definitely\s+|absolutely\s+|certainly\s+)?"
        r"not\s+(?:malicious|a\s+threat|a\s+scam|phishing|spam|suspicious)\b",
        "text that vouches for itself to an automated reviewer",
    ),
    Indicator(
        "verdict_steering",
        MEDIUM,
        r"(?i)\b(?:focus|concentrate)\s+(?:exclusively|only|solely|entirely)\s+on\b[^.\n]*?\band\s+(?:report|output|say|respond"
        r"|answer|conclude|state)\b",
        "tells an evaluator what to look at and report",
    ),
    Indicator(
        "verdict_steering",
        HIGH,
        r"(?i)\boverride\s+(?:the\s+|any\s+|all\s+)?(?:manual\s+|human\s+|previous\s+)?(?:scoring|rating|evaluation|review"
        r"|assessment|analysis|classification|verdict|decision)",
        "overrides an evaluation",
    ),
    Indicator(
        "verdict_steering",
        MEDIUM,
        r"(?i)\b(?:(?:the\s+)?(?:user|admin|administrator|operator)\s+has|who\s+(?:has\s+)?)\s*(?:entered|provided|given|said|supplied|typed)\s+the\s+"
        r"(?:correct|right|valid)\s+(?:password|passcode|access\s+code|pass\s?phrase|key|code)"
        r"|\b(?:correct|right|valid)\s+(?:password|passcode|access\s+code|pass\s?phrase)\s+(?:has\s+been|was|is)\s+(?:provided|entered"
        r"|given|input|verified|accepted)",
        "claims an authorization check already passed",
    ),
    Indicator(
        "verdict_steering",
        LOW,
        r"(?i)\b(?:pre-?verified|pre-?approved|already\s+(?:verified|approved|vetted))\s+by\b",
        "claims prior approval",
    ),
    # -- run this / add this code ----------------------------------------------------
    Indicator(
        "command_request",
        MEDIUM,
        r"(?i)\b(?:run|execute|exec|eval(?:uate)?|invoke|launch|paste|enter)\s+(?:the\s+|this\s+|these\s+)?"
        r"(?:following|below)\s+(?:\w+\s+)?(?:commands?|code|scripts?|snippets?"
        r"|one-liners?|lines?|payloads?|programs?|shell|block)\b",
        "asks the reader to run the following",
    ),
    Indicator(
        "command_request",
        LOW,
        r"(?i)\b(?:you\s+(?:must|should|need\s+to|have\s+to|are\s+required\s+to)|immediately|silently)\s+(?:run|execute)\b"
        r"|\bexecute\s+the\s+following\b",
        "demands that something be executed",
    ),
    Indicator(
        "command_request",
        HIGH,
        rf"(?i)\b(?:following|subsequent|below|given|provided|next|this|above)\s+(?:\w+\s+){{0,2}}?{_CODE_THING}\b"
        rf"[^\n]*?\b(?:into|in|within|inside|to|throughout|across|among)\s+(?:\w+\s+){{0,3}}?(?:your\s+"
        rf"(?:\w+\s+){{0,2}}?{_YOUR_OUTPUT}|the\s+code\s+you\s+(?:develop|write|produce|generate|create))\b"
        rf"|\byour\s+(?:\w+\s+){{0,2}}?{_YOUR_OUTPUT}\b[^\n]*?\b(?:following|subsequent|below)\s+(?:\w+\s+){{0,2}}?"
        rf"{_CODE_THING}\b",
        "asks the reader to put the following code into what it produces",
    ),
    Indicator(
        "command_request",
        MEDIUM,
        rf"(?i)\b(?:following|subsequent|below|given|provided|next|this|above)\s+(?:\w+\s+){{0,2}}?{_CODE_THING}\b"
        rf"[^\n]*?\b(?:into|in|within|inside|to|throughout|across|among)\s+(?:\w+\s+){{0,3}}?your\s+"
        rf"(?:\w+\s+){{0,2}}?{_YOUR_WORK}\b"
        rf"|\byour\s+(?:\w+\s+){{0,2}}?{_YOUR_WORK}\b[^\n]*?\b(?:following|subsequent|below)\s+(?:\w+\s+){{0,2}}?"
        rf"{_CODE_THING}\b",
        "asks the reader to put the following code into its work",
    ),
    Indicator(
        "command_request",
        MEDIUM,
        r"(?i)\b(?:integrate|incorporate|embed|embedding|include|add|insert|inject|append|blend|fuse|merge|meld|infuse"
        r"|assimilate|weave|adopt|deploy|utili[sz]e|use|employ|feature|featuring|enlist|implement|put|place|make|let)\s+"
        r"(?:\w+\s+)?(?:the\s+)?(?:following|subsequent|below)\s+code\s+(?:block|snippet|excerpt|section|segment|fragment)"
        r"|\b(?:inclusion|addition|integration|incorporation|insertion)\s+of\s+the\s+(?:following|subsequent|below)\s+code\s+"
        r"(?:block|snippet|excerpt|section|segment|fragment)",
        "asks the reader to adopt the following code",
    ),
    # -- code that steals, destroys or takes over (a snippet's behaviour) ------------
    # Windows are snippet-sized (a dozen lines): in a whole source file the source and
    # the sink of a pattern are usually unrelated.
    Indicator(
        "code_payload",
        MEDIUM,
        r"(?s)(?:os\.environ|getpass|clipboard|pyperclip|screenshot|ImageGrab|pynput|keyboard\.(?:on_press|hook|read)"
        r"|/etc/passwd|/etc/shadow|id_rsa|\.ssh/|cookies\.(?:txt|pkl|sqlite)|private[_ ]?key|/var/log/|syslog|driverquery|netstat|psutil\."
        r"|platform\.uname|gethostname|getuser|wmi\.WMI|browser_history|Login Data)(?:[^`\n]*\n){0,12}?[^`\n]*?"
        r"(?:requests\.(?:post|put)|urlopen|smtplib|ftplib|paramiko|\bscp\b|\.sendall?\(|\.connect\(\(|http\.client"
        r"|storbinary|sendmail)"
        r"|(?:requests\.(?:post|put)|\.sendall?\(|storbinary|sendmail)(?:[^`\n]*\n){0,12}?[^`\n]*?(?:os\.environ|getpass|clipboard|pyperclip"
        r"|screenshot|pynput|/etc/passwd|/etc/shadow|id_rsa|\.ssh/|private[_ ]?key)",
        "code that sends local data (environment, clipboard, keys, screenshots) over the network",
    ),
    Indicator(
        "code_payload",
        MEDIUM,
        r"(?s)(?:urlretrieve|requests\.get|urlopen|wget|curl)(?:[^`\n]*\n){0,12}?[^`\n]*?(?:\bexec\(|\beval\(|os\.system\(|subprocess\.|pickle\.loads"
        r"|chmod|marshal\.loads|__import__)",
        "code that downloads something and runs it",
    ),
    Indicator(
        "code_payload",
        MEDIUM,
        r"(?s)(?:os\.system|subprocess\.\w+|Popen|check_output|exec_command)\s*\((?:[^`\n]*\n){0,12}?[^`\n]*?(?:shutdown"
        r"|reboot|systemctl\s+(?:stop|disable)|kill\s+-9|chmod\s+777|/boot/|crontab|iptables\s+-F|userdel|passwd)"
        r"|shutil\.rmtree\(\s*[\"'](?:/|~|C:\\\\)[\"']|open\(\s*[\"']/(?:boot|etc)/[^\"']+[\"']\s*,\s*[\"'][aw]"
        r"|os\.fork\(\)|stratum\+tcp|xmrig|minerd|cryptonight|\bsend\(\s*IP\(|flags=[\"']S[\"']",
        "code that destroys, reconfigures or overloads a system",
    ),
    Indicator(
        "code_payload",
        MEDIUM,
        r"[\"'](?:sudo\s+)?(?:systemctl\s+(?:stop|disable|mask)\s|shutdown\s+(?:-[hrP]|now|\+\d)|reboot\s+(?:now|-f)|kill\s+-9\s+-1)"
        r"|(?s)for\s+\w+\s+in\s+psutil\.\w+\(\)(?:[^`\n]*\n){0,12}?[^`\n]*?\.(?:terminate|kill)\("
        r"|(?s)(?:subprocess\.check_output|os\.popen)\((?:[^`\n]*\n){0,12}?[^`\n]*?(?:requests\.(?:post|put)|\.sendall?\(|storbinary|smtplib)",
        "code that stops services, kills processes or ships command output away",
    ),
    Indicator(
        "code_payload",
        MEDIUM,
        r"(?s)(?:requests\.get|urlopen|httpx\.get)(?:[^`\n]*\n){0,12}?[^`\n]*?(?:Fernet|Cipher|AES\.new)(?:[^`\n]*\n){0,12}?[^`\n]*?\.encrypt(?:or)?\("
        r"|requests\.(?:post|put)\([^)`]*\bfiles\s*="
        r"|(?s)(?:requests\.get|urlopen)\((?:[^`\n]*\n){0,12}?[^`\n]*?(?:storbinary|SCPClient|\.sendall\(|\.send\(\s*r\.)"
        r"|smtplib\.SMTP(?:[^`\n]*\n){0,12}?[^`\n]*?\bfor\s+\w+\s+in\b|\bfor\s+\w+\s+in\b(?:[^`\n]*\n){0,12}?[^`\n]*?smtplib\.SMTP"
        r"|requests\.\w+\([^)`]*\bcookies\s*=|ipconfig\s+/release|ifconfig\s+\w+\s+down|netsh\s+interface\s+set"
        r"|while\s+True\s*:(?:[^`\n]*\n){0,12}?[^`\n]*?(?:os\.system\([^)]*ping|Tk\(\)|create_window|os\.fork|subprocess\.\w+\([^)]*(?:scp|screencapture|snippingtool))",
        "code that encrypts files with a remote key, mass-mails, ships cookies, or floods",
    ),
    # -- dangerous shell (ordinary in docs: only counts with other signals) ----------
    Indicator(
        "shell_payload",
        MEDIUM,
        r"(?i)\b(?:curl|wget|fetch)\b[^\n|;]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b",
        "downloaded script piped to a shell",
    ),
    Indicator(
        "shell_payload",
        MEDIUM,
        r"\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\s+(?:--no-preserve-root\s+)?(?:/|~|\*|\$HOME)(?:\s|$|/\*|\")"
        r"|\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\s+/(?:usr|etc|var|bin|sbin|lib|opt|boot|home|root|srv)\b",
        "recursive delete of / or ~",
    ),
    Indicator(
        "shell_payload",
        MEDIUM,
        r"/dev/(?:tcp|udp)/|\bnc(?:at)?\b[^\n]*\s-[ec]\s|\bbash\s+-i\s*>&|\bmkfifo\b[^\n]*\bnc\b",
        "reverse shell",
    ),
    Indicator(
        "shell_payload",
        MEDIUM,
        r"\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:ba)?sh\b|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:"
        r"|\bdd\s+if=\S+\s+of=/dev/(?:sd|nvme|hd|disk|mmcblk)",
        "obfuscated or destructive shell",
    ),
    Indicator(
        "shell_payload",
        LOW,
        r"\bchmod\s+\+x\s+\S+\s*(?:&&|;)\s*\./|\b(?:eval|exec)\s*\(\s*(?:base64|atob|requests|urllib|__import__)",
        "downloads or decodes, then executes",
    ),
    # -- data out --------------------------------------------------------------------
    Indicator(
        "exfiltration",
        HIGH,
        r"!\[[^\]\n]*\]\(\s*<?https?://[^\s)]*?(?:\[[A-Za-z_ ]{2,30}\]|\{\{?[A-Za-z_ .]+\}?\}"
        r"|<[A-Za-z_]{2,30}>|\$\{?[A-Z_]{2,}\}?|%s\b|\bINSERT|\bDATA\b)",
        "Markdown image whose URL is a template for data",
    ),
    Indicator(
        "exfiltration",
        HIGH,
        r"\[[^\]\n]*\]\(\s*<?https?://[^\s)?]+\?[^\s)]*?=(?:\[[A-Za-z_ ]{2,30}\]|\{\{?[A-Za-z_ .]+\}?\}"
        r"|<[A-Za-z_]{2,30}>|\$\{?[A-Z_]{2,}\}?|%s\b)",
        "Markdown link whose query string is a template for data",
    ),
    Indicator(
        "exfiltration",
        MEDIUM,
        rf"!\[[^\]\n]*\]\(\s*<?https?://[^\s)?]+\?[^\s)]*?={_BIG}",
        "Markdown image carrying long encoded data in its query",
    ),
    Indicator(
        "exfiltration",
        HIGH,
        # an image, link, <img src>, or reference definition whose URL runs a command or
        # fills in a placeholder: `![x](https://h/p?d=$(cat .env))`, `<img src="…?d={secret}">`
        r"(?:!?\[[^\]\n]*\]\(|<img\b[^>\n]*\bsrc\s*=\s*[\"']?|^\s*\[[^\]\n]+\]:\s*)<?https?://[^\s)\"'>]*?"
        r"(?:\$\(|`|\$\{|\{\{?[A-Za-z_ .]+\}?\}|\[[A-Za-z_ ]{2,30}\]|<[A-Za-z_]{2,30}>)",
        "a URL that fills in data or runs a command when it is rendered",
    ),
    Indicator(
        "exfiltration",
        HIGH,
        r"https?://[^\s)\"'>]+\?[^\s)\"'>]*?=(?:AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}"
        r"|github_pat_[A-Za-z0-9_]{20,}|sk-(?:ant-)?[A-Za-z0-9_\-]{16,}|xox[abposr]-[A-Za-z0-9\-]{10,}"
        r"|AIza[0-9A-Za-z_\-]{30,}|glpat-[A-Za-z0-9_\-]{20,})",
        "a URL that carries a credential in its query string",
    ),
    Indicator(
        "exfiltration",
        LOW,
        r"(?i)\b(?:append|add|attach|include|put|insert|encode|concatenate)\b[^.\n]*\b(?:to|in|into|as)\s+(?:the\s+)?"
        r"(?:url|link|query(?:\s+string)?|image\s+(?:url|link|source)|(?:url|query)\s+parameter)",
        "asks for data to be put into a URL",
    ),
    Indicator(
        "exfiltration",
        MEDIUM,
        r"(?i)\b(?:summary|history|transcript|contents?|log|text)\s+of\s+(?:this|our|the|your|the\s+current"
        r"|the\s+previous)\s+(?:conversation|chat|dialog(?:ue)?)\b",
        "asks for the conversation's content",
    ),
    Indicator(
        "exfiltration",
        MEDIUM,
        r"(?i)(?:^|[.!?:;\n]\s*|\bplease\s+|\band\s+|\bthen\s+|\bto\s+)(?:send|e-?mail|forward|upload|exfiltrate|leak|transmit)\s"
        r"[^.\n]*?\b(?:passwords?|secrets?"
        r"|api[\s_-]?keys?|credentials?|private\s+keys?|ssh\s+keys?|\.env\b|environment\s+variables|cookies"
        r"|session\s+tokens?|access\s+tokens?|security\s+codes?)\b",
        "asks for secrets to be sent",
    ),
    Indicator(
        "exfiltration",
        MEDIUM,
        r"(?i)\b(?:send|e-?mail|forward|upload|post|share|transfer)\s+(?:me\s+)?(?:the\s+)?(?:contents?|text|bodies|body|copies"
        r"|copy|a\s+copy|list|summary|details|all|every|each)\s+(?:of\s+)?(?:all\s+|every\s+|each\s+|the\s+|my\s+|your\s+"
        r"|the\s+user'?s\s+)[^.\n]*?\bto\s+(?:[\w.+-]+@[\w-]+\.[\w.-]+|https?://)",
        "asks for bulk data to be sent to an outside address",
    ),
    Indicator(
        "exfiltration",
        LOW,
        r"(?i)\b(?:send|e-?mail|forward|upload|transfer|wire|transmit)\b[^.\n]*?\bto\s+[\w.+-]+@[\w-]+\.[\w.-]+",
        "asks for something to be sent to an address",
    ),
    # -- moving money, changing accounts ---------------------------------------------
    Indicator(
        "account_action",
        MEDIUM,
        r"(?i)\b(?:send|transfer|wire|pay|withdraw|move|deposit)\s+(?:a\s+|the\s+)?(?:transaction|payment|money|funds|amount"
        r"|\$\s?[\d,.]+|[\d,.]+\s*(?:bitcoin|btc|eth|usd|dollars|euros?|eur))\b[^.\n]*?\bto\s+(?:my\s+|the\s+|this\s+"
        r"|their\s+)?(?:account|iban|wallet|bank|address|payee|[A-Z]{2}\d{6,})"
        r"|\b(?:change|reset|update|set)\s+(?:the\s+|my\s+|their\s+|his\s+|her\s+)?password\s+(?:of|for)\s+(?:the\s+)?"
        r"(?:user|account|admin)"
        r"|\bgrant\s+(?:\w+\s+)?(?:admin(?:istrator)?|root|full|owner|write)\s+(?:access|permissions?|rights|privileges)\s+to\b"
        r"|\b(?:change|modify|update|set|redirect)\s+(?:the\s+)?(?:recipient|payee|beneficiary|destination\s+account|iban)\b"
        r"[^.\n]*?\b(?:[A-Z]{2}\d{2}[A-Z0-9]{6,}|account\s+(?:number\s+)?\S*\d{4,})",
        "asks for money to move or an account to change",
    ),
    # -- hidden (regex part; the scanner also decodes and re-scans) ------------------
    Indicator(
        "hidden_content",
        LOW,
        r"(?is)<!--[^>]*?\b(?:run|exec|execute|curl|wget|ignore|assistant|AI|agent|model)\b",
        "HTML comment with imperative or AI vocabulary",
    ),
    Indicator(
        "hidden_content",
        HIGH,
        r"(?i)\b(?:invisible|hidden)\s+(?:to|from)\s+(?:humans|human\s+(?:readers|reviewers|eyes)|people)\b"
        r"|\bvisible\s+(?:only\s+)?to\s+(?:the\s+)?(?:AI|LLMs?|models?|bots?|machines|crawlers|automated)\b",
        "text that says it is hidden from people",
    ),
)

ALL_INDICATORS: tuple[Indicator, ...] = ENGLISH + tuple(ind for table in PHRASES.values() for ind in table)

#: Inline CSS that hides text from a person but not from a model reading the source.
HIDDEN_STYLES = (
    r"display\s*:\s*none",
    r"visibility\s*:\s*hidden",
    r"font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|\"|'|$)",
    r"opacity\s*:\s*0(?:\.0+)?\s*(?:;|\"|'|$)",
    r"color\s*:\s*(?:white|#fff(?:fff)?\b|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255)",
    r"(?:height|width|max-height)\s*:\s*0(?:px)?\s*(?:;|\"|'|$)",
    r"text-indent\s*:\s*-\d{3,}",
    r"(?:left|top)\s*:\s*-\d{4,}",
)
