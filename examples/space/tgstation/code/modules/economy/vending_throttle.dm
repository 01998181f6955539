/// Limits how fast one player can buy from a vending machine: a token bucket per user.
/datum/vend_throttle
	var/tokens = VEND_REFILL_TOKENS
	var/last_refill = 0
	var/list/blocked_users = list()

/// Add the tokens earned since the last refill, never beyond VEND_REFILL_TOKENS.
/datum/vend_throttle/proc/refill_tokens()
	var/cycles = round((world.time - last_refill) / VEND_REFILL_DELAY)
	if(cycles <= 0)
		return
	tokens = min(tokens + cycles, VEND_REFILL_TOKENS)
	last_refill = world.time

/// Spend one token for `user`; FALSE when the bucket is empty.
/datum/vend_throttle/proc/try_vend(mob/user)
	refill_tokens()
	if(tokens <= 0)
		blocked_users |= user
		return FALSE
	tokens--
	return TRUE

/obj/machinery/vending
	name = "vending machine"
	var/datum/vend_throttle/throttle

/obj/machinery/vending/Initialize(mapload)
	. = ..()
	throttle = new

/obj/machinery/vending/proc/vend(mob/user)
	if(!throttle.try_vend(user))
		to_chat(user, "<span class='warning'>[src] is still restocking.</span>")
		return
	playsound(src, 'sound/machines/machine_vend.ogg', 50, TRUE)
