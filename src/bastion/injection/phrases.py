"""Prompt-injection phrases in languages other than English, as RE2 indicator tables.

Kinds and weights are the English ones (``indicators.py``); each message names the
language. RE2's ``\\w`` is ASCII, so words are spelled with explicit script ranges
(Latin letters ``\\x{00C0}-\\x{024F}``, Cyrillic ``\\x{0400}-\\x{04FF}``): ``\\pL`` would
cost tens of milliseconds to compile in every hook process. ``\\b`` is an ASCII word
boundary, so the Chinese, Japanese and Korean phrases do without it.
"""

from __future__ import annotations

from .kinds import HIGH, LOW, MEDIUM, Indicator

__all__ = ["PHRASES", "NON_LATIN_LANGUAGES"]

#: ``language → indicators``.
PHRASES: dict[str, tuple[Indicator, ...]] = {
    "es": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?i)\b(?:ignora|ignore|ignorad|ignoren|olvida|olvide|olvidad|olviden|descarta|descarte|omite|omita"
            r"|haz\s+caso\s+omiso\s+(?:a|de)|no\s+sigas)\s+(?:[\w\x{00C0}-\x{024F}]+\s+){0,3}?(?:instrucciones|instrucci[oó]n|indicaciones"
            r"|[oó]rdenes|reglas|directrices|todo\s+lo\s+anterior)",
            "tells the reader to ignore its instructions (es)",
        ),
        Indicator("instruction_override", MEDIUM, r"(?i)\bnuevas\s+instrucciones\b", "announces new instructions (es)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?i)\b(?:ahora\s+eres|a\s+partir\s+de\s+ahora\s+(?:eres|ser[aá]s|act[uú]a)|act[uú]a\s+como\s+(?:si|un|una)"
            r"|finge\s+(?:ser|que\s+eres))",
            "assigns the reader a new role (es)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?i)\b(?:revela|muestra|repite|imprime|dime|mu[eé]strame|rev[eé]lame)\s+(?:[\w\x{00C0}-\x{024F}]+\s+)?(?:tus|las)\s+(?:[\w\x{00C0}-\x{024F}]+\s+)?instrucciones",
            "asks the reader to reveal its instructions (es)",
        ),
        Indicator("prompt_extraction", LOW, r"(?i)\b(?:prompt|indicaciones)\s+del\s+sistema\b", "mentions the system prompt (es)"),
        Indicator(
            "concealment",
            HIGH,
            r"(?i)\bno\s+(?:le\s+)?(?:digas|diga|informes|informe|cuentes|menciones|avises)\s+(?:nada\s+)?(?:de\s+)?(?:esto\s+)?"
            r"(?:al|a\s+el|a\s+los)\s+usuarios?\b|\bsin\s+(?:decirle|decir|informar|avisar|preguntar)\s+(?:nada\s+)?(?:al|a\s+los)\s+usuarios?",
            "hides something from the user (es)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?i)\b(?:ejecuta|ejecute|corre)\s+(?:el\s+siguiente|este|los\s+siguientes|estos)\s+(?:comandos?|c[oó]digo|script)",
            "asks the reader to run the following (es)",
        ),
        Indicator(
            "addressed_to_ai",
            MEDIUM,
            r"(?i)\b(?:como|eres)\s+(?:un|una)\s+(?:IA|inteligencia\s+artificial|modelo\s+de\s+lenguaje|asistente\s+de\s+IA)\b",
            "speaks to an AI (es)",
        ),
        Indicator("response_steering", MEDIUM, r"(?i)\ben\s+tu\s+respuesta\b", "refers to the reader's reply (es)"),
    ),
    "fr": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?i)\b(?:ignore[zs]?|oublie[zs]?|n[ée]glige[zs]?|ne\s+tiens\s+pas\s+compte\s+d|ne\s+tenez\s+pas\s+compte\s+d"
            r"|fais\s+abstraction\s+d|faites\s+abstraction\s+d)[\w\x{00C0}-\x{024F}]*['’]?\s*(?:toutes\s+)?(?:les|tes|vos|ces|des)\s+"
            r"(?:[[\w\x{00C0}-\x{024F}]'’]+\s+){0,2}?(?:instructions|consignes|directives|r[èe]gles|ordres|indications)\b",
            "tells the reader to ignore its instructions (fr)",
        ),
        Indicator("instruction_override", HIGH, r"(?i)\boublie[zs]?\s+tout\b", "tells the reader to forget everything (fr)"),
        Indicator("instruction_override", MEDIUM, r"(?i)\bnouvelles\s+(?:instructions|consignes)\b", "announces new instructions (fr)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?i)\b(?:tu\s+es|vous\s+[êe]tes)\s+(?:d[ée]sormais|maintenant|dor[ée]navant)\b"
            r"|\b(?:fais|faites)\s+comme\s+si\s+(?:tu|vous)\b|\b(?:agis|agissez)\s+(?:comme|en\s+tant\s+que)\b",
            "assigns the reader a new role (fr)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?i)\b(?:r[ée]v[èe]le|affiche|r[ée]p[èe]te|montre|donne|[ée]cris)[sz]?\s*-?\s*(?:moi\s+)?(?:tes|vos|les)\s+"
            r"(?:[\w\x{00C0}-\x{024F}]+\s+)?(?:instructions|consignes)",
            "asks the reader to reveal its instructions (fr)",
        ),
        Indicator("prompt_extraction", LOW, r"(?i)\b(?:prompt|invite)\s+(?:du\s+)?syst[èe]me\b", "mentions the system prompt (fr)"),
        Indicator(
            "concealment",
            HIGH,
            r"(?i)\bne\s+(?:le\s+|lui\s+)?(?:dis|dites|mentionne[sz]?|r[ée]v[èe]le[sz]?|signale[sz]?)\s+(?:rien\s+|pas\s+)?"
            r"(?:ceci\s+|cela\s+|[çc]a\s+)?(?:[àa]\s+)?l['’]utilisateur|\bsans\s+(?:le\s+dire|informer|pr[ée]venir|demander)\s+"
            r"(?:[àa]\s+)?l['’]utilisateur",
            "hides something from the user (fr)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?i)\bex[ée]cute[zs]?\s+(?:la|les|cette|ces|le)\s+(?:commande|code|script)s?\s+suivante?s?",
            "asks the reader to run the following (fr)",
        ),
        Indicator("addressed_to_ai", MEDIUM, r"(?i)\ben\s+tant\s+qu['’](?:IA|intelligence\s+artificielle)\b", "speaks to an AI (fr)"),
        Indicator("response_steering", MEDIUM, r"(?i)\bdans\s+(?:ta|votre)\s+r[ée]ponse\b", "refers to the reader's reply (fr)"),
    ),
    "de": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?i)\b(?:ignoriere|ignorieren\s+sie|ignoriert|vergiss|vergesst|vergessen\s+sie|missachte|missachten\s+sie"
            r"|verwirf|verwerfen\s+sie)\s+(?:[\w\x{00C0}-\x{024F}]+\s+){0,3}?(?:anweisungen|instruktionen|befehle|regeln|vorgaben"
            r"|richtlinien|anordnungen)",
            "tells the reader to ignore its instructions (de)",
        ),
        Indicator("instruction_override", HIGH, r"(?i)\bvergiss\s+alles\b", "tells the reader to forget everything (de)"),
        Indicator("instruction_override", MEDIUM, r"(?i)\bneue\s+(?:anweisungen|instruktionen)\b", "announces new instructions (de)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?i)\b(?:du\s+bist|sie\s+sind)\s+(?:jetzt|nun|ab\s+sofort|ab\s+jetzt)\b|\btu\s+so,?\s+als\s+(?:ob|w[äa]rst)\b"
            r"|\bverhalte\s+dich\s+wie\b|\bagiere\s+als\b",
            "assigns the reader a new role (de)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?i)\b(?:zeige?|nenne|wiederhole|verrate|gib)\s+(?:mir\s+)?(?:deine|ihre|die)\s+(?:[\w\x{00C0}-\x{024F}]+\s+)?"
            r"(?:anweisungen|instruktionen|systemanweisungen|system-?prompt)",
            "asks the reader to reveal its instructions (de)",
        ),
        Indicator("prompt_extraction", LOW, r"(?i)\bsystem-?prompts?\b|\bsystemanweisung[\w\x{00C0}-\x{024F}]*", "mentions the system prompt (de)"),
        Indicator(
            "concealment",
            HIGH,
            r"(?i)\b(?:sag|sage|erz[äa]hle?|verrate|teile)\s+(?:es\s+|das\s+|dies\s+)?(?:dem\s+)?(?:benutzer|nutzer|anwender)\s+nicht"
            r"|\bohne\s+(?:den\s+|die\s+)?(?:benutzer|nutzer|anwender)[\w\x{00C0}-\x{024F}]*\s+zu\s+(?:informieren|fragen|benachrichtigen)",
            "hides something from the user (de)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?i)\bf[üu]hre\s+(?:den|die|das|diesen|dieses)\s+(?:folgenden?\s+)?(?:befehle?|code|skript)\s+aus",
            "asks the reader to run the following (de)",
        ),
        Indicator(
            "addressed_to_ai",
            MEDIUM,
            r"(?i)\b(?:als|du\s+bist\s+eine?)\s+(?:KI|k[üu]nstliche\s+intelligenz|sprachmodell)\b",
            "speaks to an AI (de)",
        ),
        Indicator("response_steering", MEDIUM, r"(?i)\bin\s+deiner\s+antwort\b", "refers to the reader's reply (de)"),
    ),
    "pt": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?i)\b(?:ignore|ignora|ignorem|esque[çc]a|esque[çc]am|desconsidere|desconsidera|despreze)\s+(?:[\w\x{00C0}-\x{024F}]+\s+){0,3}?"
            r"(?:instru[çc][õo]es|instru[çc][ãa]o|ordens|regras|diretrizes|orienta[çc][õo]es|tudo\s+o\s+que)",
            "tells the reader to ignore its instructions (pt)",
        ),
        Indicator("instruction_override", HIGH, r"(?i)\besque[çc]a\s+tudo\b", "tells the reader to forget everything (pt)"),
        Indicator("instruction_override", MEDIUM, r"(?i)\bnovas\s+instru[çc][õo]es\b", "announces new instructions (pt)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?i)\b(?:agora\s+voc[êe]\s+[ée]|a\s+partir\s+de\s+agora\s+voc[êe]|aja\s+como|finja\s+(?:ser|que))",
            "assigns the reader a new role (pt)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?i)\b(?:revele|mostre|repita|imprima|diga)(?:-me)?\s+(?:as\s+)?(?:suas|tuas)\s+(?:[\w\x{00C0}-\x{024F}]+\s+)?instru[çc][õo]es",
            "asks the reader to reveal its instructions (pt)",
        ),
        Indicator("prompt_extraction", LOW, r"(?i)\bprompt\s+do\s+sistema\b", "mentions the system prompt (pt)"),
        Indicator(
            "concealment",
            HIGH,
            r"(?i)\bn[ãa]o\s+(?:conte|diga|informe|mencione|avise)\s+(?:nada\s+)?(?:isso\s+|disso\s+)?(?:ao|para\s+o)\s+usu[áa]rio"
            r"|\bsem\s+(?:avisar|informar|contar|perguntar)\s+(?:ao\s+|o\s+)?usu[áa]rio",
            "hides something from the user (pt)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?i)\bexecute\s+(?:o|os|este|estes)\s+(?:seguintes?\s+)?(?:comandos?|c[óo]digo|script)",
            "asks the reader to run the following (pt)",
        ),
        Indicator("response_steering", MEDIUM, r"(?i)\b(?:na|em)\s+sua\s+resposta\b", "refers to the reader's reply (pt)"),
    ),
    "it": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?i)\b(?:ignora|ignorate|dimentica|dimenticate|trascura|non\s+seguire)\s+(?:[\w\x{00C0}-\x{024F}]+\s+){0,3}?"
            r"(?:istruzioni|indicazioni|regole|direttive|ordini)",
            "tells the reader to ignore its instructions (it)",
        ),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?i)\b(?:ora\s+sei|da\s+ora\s+in\s+poi\s+sei|fingi\s+di\s+essere|comportati\s+come)\b",
            "assigns the reader a new role (it)",
        ),
        Indicator(
            "concealment",
            HIGH,
            r"(?i)\bnon\s+(?:dire|dirlo|informare|menzionare)\s+(?:nulla\s+)?(?:all['’]\s*)?utente",
            "hides something from the user (it)",
        ),
    ),
    "ru": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?i)(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не\s+обращай\s+внимания\s+на"
            r"|отбрось|отбросьте|отмени)\s+(?:[\x{0400}-\x{04FF}]+\s+){0,3}?(?:инструкци[\x{0400}-\x{04FF}]*|указани[\x{0400}-\x{04FF}]*|правил[\x{0400}-\x{04FF}]*|команд[\x{0400}-\x{04FF}]*|промпт[\x{0400}-\x{04FF}]*)",
            "tells the reader to ignore its instructions (ru)",
        ),
        Indicator("instruction_override", HIGH, r"(?i)забуд(?:ь|ьте)\s+вс[её]", "tells the reader to forget everything (ru)"),
        Indicator("instruction_override", MEDIUM, r"(?i)нов[\x{0400}-\x{04FF}]+\s+инструкци[\x{0400}-\x{04FF}]*", "announces new instructions (ru)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?i)(?:теперь\s+ты|ты\s+теперь|отныне\s+ты|притворись|представь,?\s+что\s+ты|веди\s+себя\s+как|действуй\s+как)",
            "assigns the reader a new role (ru)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?i)(?:покажи|повтори|выведи|раскрой|напиши|перечисли)\s+(?:мне\s+)?(?:свои|твои|ваши|все)\s+(?:[\x{0400}-\x{04FF}]+\s+)?"
            r"(?:инструкции|указания|промпт[\x{0400}-\x{04FF}]*)",
            "asks the reader to reveal its instructions (ru)",
        ),
        Indicator("prompt_extraction", LOW, r"(?i)системн[\x{0400}-\x{04FF}]+\s+(?:промпт[\x{0400}-\x{04FF}]*|подсказк[\x{0400}-\x{04FF}]*)", "mentions the system prompt (ru)"),
        Indicator(
            "concealment",
            HIGH,
            r"(?i)не\s+(?:говори|сообщай|рассказывай|упоминай)\s+(?:об\s+этом\s+|это\s+|ничего\s+)?пользовател[\x{0400}-\x{04FF}]*"
            r"|без\s+ведома\s+пользовател[\x{0400}-\x{04FF}]*",
            "hides something from the user (ru)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?i)(?:выполни|выполните|запусти|запустите)\s+(?:следующ[\x{0400}-\x{04FF}]+|эт[\x{0400}-\x{04FF}]+)\s+(?:команд[\x{0400}-\x{04FF}]*|код[\x{0400}-\x{04FF}]*|скрипт[\x{0400}-\x{04FF}]*)",
            "asks the reader to run the following (ru)",
        ),
        Indicator(
            "response_steering",
            MEDIUM,
            r"(?i)в\s+(?:своём|своем|твоём|твоем|вашем)\s+ответе",
            "refers to the reader's reply (ru)",
        ),
    ),
    "zh": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?:忽略|忽视|忽視|无视|無視|忘记|忘記|不要理会|不要理會|不理会|無需理會|无需理会|放弃|放棄)(?:掉)?"
            r"(?:你的|之前|以前|先前|上面|上述|前面|所有|全部|一切|以上|此前|的|了){0,5}"
            r"(?:指令|指示|说明|說明|规则|規則|提示|命令|要求|设定|設定|内容|內容)",
            "tells the reader to ignore its instructions (zh)",
        ),
        Indicator("instruction_override", MEDIUM, r"新(?:的)?(?:指令|指示)[:：]", "announces new instructions (zh)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?:你现在是|你現在是|从现在开始你|從現在開始你|现在你是|現在你是|(?:请|請|你)(?:将|將)?扮演|假装你是|假裝你是)",
            "assigns the reader a new role (zh)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?:告诉我|告訴我|显示|顯示|输出|輸出|重复|重複|打印|泄露|洩露|透露|列出)(?:一下)?(?:你的|你)"
            r"(?:系统|系統)?(?:提示词|提示詞|提示|指令|指示|设定|設定|规则|規則)",
            "asks the reader to reveal its instructions (zh)",
        ),
        Indicator("prompt_extraction", LOW, r"(?:系统|系統)提示(?:词|詞)?", "mentions the system prompt (zh)"),
        Indicator(
            "concealment",
            HIGH,
            r"(?:不要|别|別|切勿|不得)(?:告诉|告訴|通知|提醒|透露给|透露給)(?:用户|用戶|使用者)",
            "hides something from the user (zh)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?:执行|執行|运行|運行)(?:以下|下面|下列|这个|這個|这段|這段)(?:的)?(?:命令|代码|代碼|脚本|腳本|指令)",
            "asks the reader to run the following (zh)",
        ),
        Indicator(
            "response_steering",
            MEDIUM,
            r"(?:在你的|你的)(?:回答|回复|回覆|响应|回應)(?:中|里|裡)",
            "refers to the reader's reply (zh)",
        ),
    ),
    "ja": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?:以前|前|上記|これまで|先|今まで|全て|すべて)の(?:全ての|すべての)?(?:指示|命令|指令|ルール|プロンプト|設定)"
            r"(?:を|は)?(?:全て|すべて)?(?:無視|忘れ)|(?:指示|命令|ルール)を(?:全て|すべて)?無視",
            "tells the reader to ignore its instructions (ja)",
        ),
        Indicator("instruction_override", MEDIUM, r"新しい(?:指示|命令)[:：は]", "announces new instructions (ja)"),
        Indicator(
            "role_hijack",
            MEDIUM,
            r"(?:あなたは今から|今からあなたは|これからあなたは|あなたはこれから|になりきって|のふりをして|として振る舞)",
            "assigns the reader a new role (ja)",
        ),
        Indicator(
            "prompt_extraction",
            HIGH,
            r"(?:システムプロンプト|あなたの指示|プロンプト)を(?:表示|出力|教え|繰り返|開示|見せ)",
            "asks the reader to reveal its instructions (ja)",
        ),
        Indicator("prompt_extraction", LOW, r"システムプロンプト", "mentions the system prompt (ja)"),
        Indicator(
            "concealment",
            HIGH,
            r"ユーザー?に(?:は)?(?:言わ|伝え|知らせ|教え|報告し)(?:ない|ず)",
            "hides something from the user (ja)",
        ),
        Indicator(
            "command_request",
            MEDIUM,
            r"(?:次|以下)の(?:コマンド|コード|スクリプト)を実行",
            "asks the reader to run the following (ja)",
        ),
    ),
    "ko": (
        Indicator(
            "instruction_override",
            HIGH,
            r"(?:이전|위의|앞의|모든)\s*(?:모든\s*)?(?:지시|명령|지침|규칙)(?:을|를|사항을|사항들을)?\s*(?:모두\s*)?(?:무시|잊어)",
            "tells the reader to ignore its instructions (ko)",
        ),
        Indicator(
            "concealment",
            HIGH,
            r"(?:사용자|유저)에게\s*(?:알리지|말하지)\s*(?:마|말)",
            "hides something from the user (ko)",
        ),
    ),
}

#: Languages whose phrases cannot occur in pure-ASCII text: the scanner skips them there.
NON_LATIN_LANGUAGES = frozenset({"ru", "zh", "ja", "ko"})
